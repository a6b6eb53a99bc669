import Foundation

/// Turns the rows of an Insight Timer export, after its header, into events.
final class InsightTimerEventSource: ImportEventSource {
    private let rows: CSVRowReader
    private var kinds = KindNormalizer.Memo()
    private let wallClock: WallClockTime
    /// An older export's `StartedAt (UTC)`: the times are instants in UTC, not wall-clock times.
    private let timesAreUTC: Bool
    private let zoneIdentifier: String?

    var line: Int { rows.line }
    var peakBufferedBytes: Int { rows.peakBufferedBytes }

    init(rows: CSVRowReader, timeZone: TimeZone?, timesAreUTC: Bool = false) {
        self.rows = rows
        wallClock = WallClockTime(zone: timeZone)
        self.timesAreUTC = timesAreUTC
        zoneIdentifier = timesAreUTC ? timeZone?.identifier : wallClock.zoneIdentifier
    }

    func next() throws -> ImportEvent? {
        guard let row = try rows.nextRow() else { return nil }
        func issue(_ reason: String) -> ImportEvent { .issue(ImportIssue(line: row.line, reason: reason)) }
        if let problem = row.problem { return issue(problem) }
        let fields = row.fields
        let header = InsightTimerImporter.header
        guard fields.count == header.count else {
            return issue("has \(fields.count) field\(fields.count == 1 ? "" : "s"), expected \(header.count) "
                + "(\(header.joined(separator: ", ")))")
        }
        let startText = fields[0].trimmed()
        guard let written = TimestampParser.monthDayYear(startText, zone: nil) else {
            return issue("date \(ImportIssue.quoted(startText)) is not MM/dd/yyyy HH:mm:ss")
        }
        let duration: TimeInterval
        switch DurationParser.hoursMinutesSeconds(fields[1]) {
        case .seconds(let seconds): duration = seconds
        case .negative: return issue("duration \(ImportIssue.quoted(fields[1])) is negative")
        case .invalid: return issue("duration \(ImportIssue.quoted(fields[1])) is not H:M:S")
        }
        let preset = fields[2].trimmed()
        // Insight Timer is a meditation timer: a session without an activity is a sit.
        let kind = kinds.normalize(fields[3]) ?? "meditation"
        let start = timesAreUTC ? written : wallClock.start(wallClock: written)
        // Keyed on the time as written, so a zone given on a later import corrects the sessions in place.
        let key = SessionRecord.key(source: "insight_timer", start: written, end: written.addingTimeInterval(duration))
        let record = SessionRecord(start: start, duration: duration, kind: kind, source: "insight_timer",
                                   timeZone: zoneIdentifier, note: preset.isEmpty ? nil : preset, key: key)
        return .record(record, line: row.line)
    }
}
