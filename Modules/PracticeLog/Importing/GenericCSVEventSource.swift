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
    }

    private let rows: CSVRowReader
    private var kinds = KindNormalizer.Memo()
    private let columns: Columns
    private let options: GenericCSVImporter
    private let formatter: DateFormatter?
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
        } else {
            formatter = nil
        }
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
        let startText = fields[columns.start].trimmed()
        guard !startText.isEmpty else { return issue("\(options.startColumn) is empty") }
        guard let start = date(startText) else {
            return issue("\(options.startColumn) \(ImportIssue.quoted(startText)) is not \(dateFormatName)")
        }
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
            if let end = date(durationText) {
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
            return issue("\(durationName) \(ImportIssue.quoted(durationText)) is not \(expected)")
        }
        let kind = columns.kind.flatMap { kinds.normalize(fields[$0]) } ?? defaultKind
        let note = columns.note.map { fields[$0].trimmed() }
        let record = SessionRecord(start: start, duration: duration, kind: kind, source: options.source,
                                   timeZone: options.timeZone?.identifier, note: note?.isEmpty == false ? note : nil)
        return .record(record, line: row.line)
    }

    private var dateFormatName: String {
        options.dateFormat.map { "in the format \($0)" } ?? "an ISO 8601 date such as 2024-03-05T07:30:00"
    }

    private func date(_ text: String) -> Date? {
        if let formatter {
            // Foundation's DateFormatter traps ("Incorrect range") when its parse stops inside a character of
            // several scalars, such as a digit with a combining mark; no date a pattern reads has one.
            guard text.unicodeScalars.count == text.count else { return nil }
            return formatter.date(from: text)
        }
        return TimestampParser.iso8601(text, zone: options.timeZone)
    }
}
