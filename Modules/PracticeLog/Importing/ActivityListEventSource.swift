import Foundation

/// Turns the rows of a fitness service's activity list (Garmin Connect, Strava) into events: practice rows
/// become sessions, other activities (runs, rides) are counted by type in ``notPractice``, not listed.
final class ActivityListEventSource: ImportEventSource {
    /// What differs between the services' lists.
    enum Service {
        /// Garmin Connect: wall-clock `Date`s, `Time` as `HH:mm:ss` with an optional fraction.
        case garmin(WallClockTime)
        /// Strava: `Activity Date`s in UTC (English), `Elapsed Time` in seconds; sessions carry the zone given.
        case strava(TimeZone?)
    }

    /// Positions of the columns read, found by name (the first column of a repeated name).
    struct Columns {
        var count: Int
        var type: Int
        var date: Int
        var duration: Int
        var name: Int?

        /// The columns named in `header`, or the name of the first one missing.
        static func find(in header: [String], type: String, date: String, duration: String, name: String)
            -> Result<Columns, MissingColumn> {
            let keys = header.map { $0.trimmed().lowercased() }
            func index(_ column: String) -> Int? { keys.firstIndex(of: column.lowercased()) }
            guard let typeIndex = index(type) else { return .failure(MissingColumn(name: type)) }
            guard let dateIndex = index(date) else { return .failure(MissingColumn(name: date)) }
            guard let durationIndex = index(duration) else { return .failure(MissingColumn(name: duration)) }
            return .success(Columns(count: header.count, type: typeIndex, date: dateIndex, duration: durationIndex,
                                    name: index(name)))
        }
    }

    struct MissingColumn: Error {
        var name: String
    }

    /// Kinds of practice, as normalized activity types.
    static let practiceKinds: Set<String> = ["yoga", "meditation", "breathwork", "pilates", "tai_chi", "mindfulness"]

    private let rows: CSVRowReader
    private let columns: Columns
    private let service: Service
    private let source: String
    private let zoneIdentifier: String?
    private var kinds = KindNormalizer.Memo()
    private let stravaDates: DateFormatter
    /// Rows of other activities, by their type; bounded so a file of odd types cannot grow it without end.
    private(set) var notPractice: [String: Int] = [:]

    var line: Int { rows.line }
    var peakBufferedBytes: Int { rows.peakBufferedBytes }

    init(rows: CSVRowReader, columns: Columns, service: Service) {
        self.rows = rows
        self.columns = columns
        self.service = service
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "MMM d, yyyy, h:mm:ss a"
        formatter.isLenient = false
        stravaDates = formatter
        switch service {
        case .garmin(let wallClock):
            source = "garmin_connect"
            zoneIdentifier = wallClock.zoneIdentifier
        case .strava(let zone):
            source = "strava"
            zoneIdentifier = zone?.identifier
        }
    }

    func next() throws -> ImportEvent? {
        while let row = try rows.nextRow() {
            if let event = event(for: row) { return event }
        }
        return nil
    }

    /// The event for one row, or `nil` for an activity that is not practice (counted instead).
    private func event(for row: CSVRow) -> ImportEvent? {
        func issue(_ reason: String) -> ImportEvent { .issue(ImportIssue(line: row.line, reason: reason)) }
        if let problem = row.problem { return issue(problem) }
        let fields = row.fields
        guard fields.count >= columns.count else {
            return issue("has \(fields.count) field\(fields.count == 1 ? "" : "s"), expected \(columns.count) like the header")
        }
        let type = fields[columns.type].trimmed()
        let name = columns.name.map { fields[$0].trimmed() } ?? ""
        guard let kind = practiceKind(type: type, name: name) else {
            let label = type.isEmpty ? "(no type)" : String(type.prefix(40))
            if notPractice[label] != nil || notPractice.count < 64 {
                notPractice[label, default: 0] += 1
            } else {
                notPractice["other", default: 0] += 1
            }
            return nil
        }
        let dateText = fields[columns.date].trimmed()
        let durationText = fields[columns.duration].trimmed()
        let start: Date, written: Date, duration: TimeInterval
        switch service {
        case .garmin(let wallClock):
            guard let wall = TimestampParser.dateTime(dateText, zone: nil) else {
                return issue("Date \(ImportIssue.quoted(dateText)) is not yyyy-MM-dd HH:mm:ss")
            }
            guard let seconds = Self.garminDuration(durationText) else {
                return issue("Time \(ImportIssue.quoted(durationText)) is not HH:mm:ss")
            }
            written = wall
            start = wallClock.start(wallClock: wall)
            duration = seconds
        case .strava:
            guard let date = stravaDates.date(from: dateText) else {
                return issue("Activity Date \(ImportIssue.quoted(dateText)) is not like 'Jan 5, 2023, 7:12:34 AM'")
            }
            guard case .seconds(let seconds) = DurationParser.number(durationText, scale: 1) else {
                return issue("Elapsed Time \(ImportIssue.quoted(durationText)) is not a number of seconds")
            }
            written = date
            start = date
            duration = seconds
        }
        // Keyed on the time as written: for Garmin's wall-clock times, a zone given later corrects in place.
        let key = SessionRecord.key(source: source, start: written, end: written.addingTimeInterval(duration))
        let record = SessionRecord(start: start, duration: duration, kind: kind, source: source,
                                   timeZone: zoneIdentifier, note: name.isEmpty ? nil : name, key: key)
        return .record(record, line: row.line)
    }

    /// The kind of practice a row is, or `nil` for another activity. Strava files yoga done with a
    /// generic type as `Workout`: its name says what it was.
    private func practiceKind(type: String, name: String) -> String? {
        if let kind = kinds.normalize(type), Self.practiceKinds.contains(kind) { return kind }
        guard case .strava = service, type.lowercased() == "workout" else { return nil }
        let lowered = name.lowercased()
        let words: [(String, String)] = [("yoga", "yoga"), ("meditat", "meditation"), ("pilates", "pilates"),
                                         ("breath", "breathwork")]
        return words.first { lowered.contains($0.0) }?.1
    }

    /// Garmin's `Time`: `HH:mm:ss`, sometimes with a fraction of a second (`00:45:00.3`).
    static func garminDuration(_ text: String) -> TimeInterval? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard let whole = parts.first, case .seconds(let seconds) = DurationParser.hoursMinutesSeconds(String(whole))
        else { return nil }
        guard parts.count == 2 else { return seconds }
        let digits = parts[1]
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              let fraction = Double("0." + digits) else { return nil }
        return seconds + fraction
    }
}
