import Foundation

/// Reads Insight Timer's CSV export: `Started At,Duration,Preset,Activity`.
///
/// `Started At` is `MM/dd/yyyy HH:mm:ss` with no zone: the practitioner's wall-clock time, read by the
/// ``WallClockTime`` rule (kept as the time the person saw, zone `Etc/UTC`, unless ``timeZone`` says where
/// they were). An older export's `StartedAt (UTC)` column says its times are UTC: they are read as such,
/// and carry ``timeZone`` when given. `Duration` is `H:M:S` without padding (`0:25:0`, `87:21:41`),
/// `Activity` is `PracticeType.Meditation` or a plain, possibly translated word. A non-empty `Preset`
/// becomes the record's note.
///
/// The key of a record is `insight_timer|start|end` with the start as written in the file, read as UTC
/// (what earlier versions stored without `--time-zone`): importing the file again, with or without a
/// zone, finds the same sessions instead of adding copies.
///
/// As with ``GenericCSVImporter``, a quote never closed or a row over 1 MiB ends the reading with an
/// ``ImportDataError`` at its line after the rows before it; a session outside ``ImportLimits`` is skipped.
///
/// ```swift
/// let utc = try InsightTimerImporter().makeRecordReader(url: url)
/// let berlin = try InsightTimerImporter(timeZone: TimeZone(identifier: "Europe/Berlin")).makeRecordReader(url: url)
/// ```
public struct InsightTimerImporter: SessionImporter {
    public static let id = "insight-timer"

    static let header = ["Started At", "Duration", "Preset", "Activity"]
    /// An older export named the first column this way.
    static let olderFirstColumn = "StartedAt (UTC)"

    /// The zone the `Started At` times are written in, which the records then carry; `nil` keeps them as
    /// the wall-clock times the person saw (see ``WallClockTime``).
    public var timeZone: TimeZone?

    public init() {
        timeZone = nil
    }

    public init(timeZone: TimeZone?) {
        self.timeZone = timeZone
    }

    public func makeRecordReader(url: URL) throws -> SessionRecordReader {
        let rows = CSVRowReader(cursor: ByteCursor(source: try FileChunkSource(url: url)))
        let header: CSVRow?
        do {
            header = try rows.nextRow()
        } catch {
            throw ImportReadError.wrapping(error, path: url.path, line: rows.line)
        }
        let fields = header?.fields.map { $0.trimmed() }
        guard let fields, fields == Self.header || fields == [Self.olderFirstColumn] + Self.header.dropFirst() else {
            throw ImportFormatError(
                path: url.path, format: "an Insight Timer export",
                expected: "the header '\(Self.header.joined(separator: ","))'",
                found: header.map { ImportIssue.quoted($0.fields.joined(separator: ","), limit: 80) } ?? "an empty file",
                suggestion: "Export the sessions again from Insight Timer, or import the file as a generic CSV "
                    + "with its columns named.")
        }
        let isUTC = fields.first == Self.olderFirstColumn
        return SessionRecordReader(url: url, source: InsightTimerEventSource(rows: rows, timeZone: timeZone, timesAreUTC: isUTC),
                                   timeRule: isUTC ? Self.utcRule(timeZone) : WallClockTime(zone: timeZone).rule(format: "Insight Timer"))
    }

    /// The rule an older export's `StartedAt (UTC)` column calls for.
    private static func utcRule(_ zone: TimeZone?) -> String {
        let days = zone.map { "counted in \($0.identifier) (--time-zone)" }
            ?? "counted in the report's zone (--time-zone Europe/Berlin to count them in yours)"
        return "this older Insight Timer export writes its times in UTC (StartedAt (UTC)): days and hours are " + days
    }
}

extension SessionImporter where Self == InsightTimerImporter {
    /// Insight Timer's CSV export, with times kept as the wall-clock times the person saw.
    public static var insightTimer: InsightTimerImporter { InsightTimerImporter() }

    /// Insight Timer's CSV export, with times read in `timeZone`.
    public static func insightTimer(timeZone: TimeZone?) -> InsightTimerImporter {
        InsightTimerImporter(timeZone: timeZone)
    }
}
