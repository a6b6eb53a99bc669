import Foundation

/// Turns the rows of a generic CSV file, after its header, into events.
final class GenericCSVEventSource: ImportEventSource {
    /// Positions of the mapped columns in a row.
    struct Columns {
        var count: Int
        var start: Int
        var duration: Int
        var kind: Int?
        var note: Int?
        var practitioner: Int?
    }

    private let rows: CSVRowReader
    private var kinds = KindNormalizer.Memo()
    private let columns: Columns
    private let options: GenericCSVImporter
    private let formatter: DateFormatter?
    /// The `dateFormat` has a zone field (`Z`, `XXX`, `zzz`...): its dates are instants, not wall-clock times.
    private let formatHasZone: Bool
    private let defaultKind: String

    var line: Int { rows.line }
    var peakBufferedBytes: Int { rows.peakBufferedBytes }

    init(rows: CSVRowReader, columns: Columns, options: GenericCSVImporter) {
        self.rows = rows
        self.columns = columns
        self.options = options
        defaultKind = KindNormalizer.normalize(options.defaultKind) ?? "meditation"
        if let pattern = options.dateFormat {
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = options.timeZone ?? TimeZone(identifier: "UTC")
            formatter.dateFormat = pattern
            formatter.isLenient = false
            self.formatter = formatter
            formatHasZone = Self.hasZoneField(pattern)
        } else {
            formatter = nil
            formatHasZone = false
        }
    }

    /// Whether a `DateFormatter` pattern has a zone field, outside its quoted literals.
    static func hasZoneField(_ pattern: String) -> Bool {
        var quoted = false
        for character in pattern {
            if character == "'" { quoted.toggle() } else if !quoted, "ZzXxOV".contains(character) { return true }
        }
        return false
    }

    func next() throws -> ImportEvent? {
        guard let row = try rows.nextRow() else { return nil }
        func issue(_ reason: String) -> ImportEvent { .issue(ImportIssue(line: row.line, reason: reason)) }
        if let problem = row.problem { return issue(problem) }
        let fields = row.fields
        // Spreadsheets often pad rows with empty trailing cells; only real extra values are wrong.
        let extraValues = fields.dropFirst(columns.count).contains { !$0.trimmed().isEmpty }
        guard fields.count >= columns.count, !extraValues else {
            let plural = fields.count == 1 ? "" : "s"
            return issue("has \(fields.count) field\(plural), expected \(columns.count) like the header")
        }
        var practitioner: String?
        if let column = columns.practitioner, let name = options.practitionerColumn {
            let id = fields[column].trimmed()
            if let problem = Practitioners.problem(withID: id) {
                // A cell with a control character is not shown: it would break the line it is printed on.
                let cell = problem == Practitioners.controlCharacterProblem || id.isEmpty ? "" : " \(ImportIssue.quoted(id))"
                return issue("practitioner column \(ImportIssue.quoted(name))\(cell) \(problem): every row names its practitioner by an id of 1 to \(Practitioners.maximumIDLength) characters")
            }
            practitioner = id
        }
        // A practitioner's home time zone reads the times without an offset of their rows, when no zone was given.
        let rowZone = options.timeZone ?? practitioner.flatMap { options.homeTimeZones[$0] }
        let startText = fields[columns.start].trimmed()
        guard !startText.isEmpty else { return issue("\(options.startColumn) is empty") }
        guard let stamp = stamp(startText, zone: rowZone) else {
            return issue(dateProblem(column: options.startColumn, text: startText))
        }
        let start = stamp.date
        let durationText = fields[columns.duration].trimmed()
        let durationName = options.duration.column
        guard !durationText.isEmpty else { return issue("\(durationName) is empty") }
        let outcome: DurationParser.Outcome
        let expected: String
        switch options.duration {
        case .seconds:
            outcome = DurationParser.number(durationText, scale: 1)
            expected = "a number of seconds"
        case .minutes:
            outcome = DurationParser.number(durationText, scale: 60)
            expected = "a number of minutes"
        case .hoursMinutesSeconds:
            outcome = DurationParser.hoursMinutesSeconds(durationText)
            expected = "H:M:S"
        case .end:
            expected = dateFormatName
            if let end = self.stamp(durationText, zone: rowZone)?.date {
                outcome = end < start ? .negative : .seconds(end.timeIntervalSince(start))
            } else {
                outcome = .invalid
            }
        }
        let duration: TimeInterval
        switch outcome {
        case .seconds(let seconds):
            duration = seconds
        case .negative:
            if case .end = options.duration {
                return issue("\(durationName) \(ImportIssue.quoted(durationText)) is before the start (a negative duration)")
            }
            return issue("\(durationName) \(ImportIssue.quoted(durationText)) is negative")
        case .invalid:
            if case .end = options.duration { return issue(dateProblem(column: durationName, text: durationText)) }
            return issue("\(durationName) \(ImportIssue.quoted(durationText)) is not \(expected)")
        }
        let kind = columns.kind.flatMap { kinds.normalize(fields[$0]) } ?? defaultKind
        let note = columns.note.map { fields[$0].trimmed() }
        var record = SessionRecord(start: start, duration: duration, kind: kind, source: options.source,
                                   timeZone: zone(of: stamp, in: rowZone), note: note?.isEmpty == false ? note : nil)
        record.practitioner = practitioner
        return .record(record, line: row.line)
    }

    private var dateFormatName: String {
        options.dateFormat.map { "in the format \($0)" } ?? "an ISO 8601 date such as 2024-03-05T07:30:00"
    }

    /// The instant `text` names, a time without an offset read in `zone` (the zone given, or the row's
    /// practitioner's home time zone).
    private func stamp(_ text: String, zone: TimeZone?) -> TimestampParser.Stamp? {
        if let formatter {
            // Foundation's DateFormatter traps ("Incorrect range") when its parse stops inside a character of
            // several scalars, such as a digit with a combining mark; no date a pattern reads has one.
            guard text.unicodeScalars.count == text.count, let date = formatter.date(from: text) else { return nil }
            // The formatter reads in the zone given, else in UTC: a home zone turns that wall-clock time into its instant.
            if options.timeZone == nil, !formatHasZone, let zone {
                return TimestampParser.Stamp(date: TimestampParser.instant(wallClock: date, in: zone), offset: nil)
            }
            return TimestampParser.Stamp(date: date, offset: nil)
        }
        return TimestampParser.iso8601Stamp(text, zone: zone)
    }

    /// Why a date cell could not be read: an offset beyond ±14:00 is named as such.
    private func dateProblem(column: String, text: String) -> String {
        if formatter == nil, let offset = TimestampParser.offsetBeyondLimit(in: text) {
            return "\(column) \(ImportIssue.quoted(text)) has the offset \(offset), beyond ±14:00 (no clock is further "
                + "from UTC); give an offset between -12:00 and +14:00"
        }
        return "\(column) \(ImportIssue.quoted(text)) is not \(dateFormatName)"
    }

    /// The zone a session carries: the one given to the import (or the row's practitioner's home time zone); else
    /// the offset its date was written with; else, for a wall-clock time, `Etc/UTC` (see ``WallClockTime``); a date
    /// format with a zone field and no zone given leaves it unknown, so the report's zone counts its days.
    private func zone(of stamp: TimestampParser.Stamp, in zone: TimeZone?) -> String? {
        if let zone { return zone.identifier }
        if let offset = stamp.offset { return TimestampParser.zoneIdentifier(offset: offset) }
        return formatHasZone ? nil : TimestampParser.wallClockZone
    }
}
