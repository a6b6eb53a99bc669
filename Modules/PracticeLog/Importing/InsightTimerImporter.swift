import Foundation

/// Reads Insight Timer's CSV export: `Started At,Duration,Preset,Activity`.
///
/// `Started At` is `MM/dd/yyyy HH:mm:ss` with no zone (UTC unless told otherwise), `Duration` is `H:M:S`
/// without padding (`0:25:0`, `87:21:41`), `Activity` is `PracticeType.Meditation` or a plain, possibly
/// translated word. A non-empty `Preset` becomes the record's note.
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

    /// The zone the `Started At` times are written in, which the records then carry; `nil` reads them as
    /// UTC and leaves the records' zone unknown.
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
        return SessionRecordReader(url: url, source: InsightTimerEventSource(rows: rows, timeZone: timeZone))
    }
}

extension SessionImporter where Self == InsightTimerImporter {
    /// Insight Timer's CSV export, with times read as UTC.
    public static var insightTimer: InsightTimerImporter { InsightTimerImporter() }

    /// Insight Timer's CSV export, with times read in `timeZone`.
    public static func insightTimer(timeZone: TimeZone?) -> InsightTimerImporter {
        InsightTimerImporter(timeZone: timeZone)
    }
}
