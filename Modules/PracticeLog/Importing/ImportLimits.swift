import Foundation

/// The range every imported value must lie in, and the size of one record, in one place: the importers,
/// their error messages and the README cite these numbers.
///
/// A session outside the range is skipped with its line and reason, like any other bad row; a record larger
/// than ``maxRecordBytes`` stops the import, since nothing after it can be trusted to start a new record.
///
/// ```swift
/// ImportLimits.problem(start: start, duration: 8 * 86_400, now: Date())
/// // "duration 691200 s is longer than 7 days, the longest session Stillpoint imports"
/// ```
public enum ImportLimits {
    /// The longest session imported: 7 days, in seconds. Longer ones are typing or export mistakes.
    public static let maxDuration: TimeInterval = 7 * 86_400
    /// The earliest start imported: 1970-01-01T00:00:00Z.
    public static let earliestStart = Date(timeIntervalSince1970: 0)
    /// How far after the moment of the import a start may lie: one day, for clocks and zones a little off.
    public static let futureMargin: TimeInterval = 86_400
    /// The largest record read: a CSV row, an XML tag, or the text, comment or declaration between two
    /// tags. 1 MiB is far beyond any real export's record and keeps a broken or endless input (a quote never
    /// closed, `/dev/zero`) from being read without end.
    public static let maxRecordBytes = 1 << 20
    /// ``maxRecordBytes`` as people read it, for messages.
    public static let maxRecordSize = "1 MiB"
    /// The most sessions one post of sessions (``PostedSessions``) holds: an app posts a few at a time, a backfill
    /// posts in parts; an import file has no such limit.
    public static let maxPostedSessions = 10_000
    /// The largest body of posted sessions, in bytes: room for ``maxPostedSessions`` sessions with long keys.
    public static let maxPostedBytes = 4 << 20
    /// The longest text field of a posted session (`kind`, `source`, `time_zone`, `key`), in UTF-8 bytes.
    public static let maxFieldBytes = 256

    /// Why a session with this start and duration is out of range, or `nil` when it is in range.
    public static func problem(start: Date, duration: TimeInterval, now: Date) -> String? {
        guard !duration.isNaN else { return "duration is not a number" }
        guard duration > 0 else { return "duration is \(seconds(duration)) s; a session lasts longer than 0 seconds" }
        guard duration <= maxDuration else {
            let shown = duration.isFinite ? " \(seconds(duration)) s" : ""
            return "duration\(shown) is longer than 7 days (\(Int(maxDuration)) s), the longest session imported"  // swiftlint:disable:this integer_conversion: a constant
        }
        let startSeconds = start.timeIntervalSince1970
        guard startSeconds.isFinite, start >= earliestStart else {
            return "the start lies before 1970-01-01, the earliest start imported"
        }
        guard start <= now.addingTimeInterval(futureMargin) else {
            return "the start \(ISO8601DateFormatter().string(from: start)) lies more than a day in the future"
        }
        return nil
    }

    /// Why a session's text cannot be stored as it is, or `nil` when it can: a NUL character (U+0000), which
    /// SQLite would keep but PostgreSQL's `text` cannot hold. The row is skipped with its line on every store,
    /// rather than stored on one and refused (with the whole batch) on the other, or stored cut short.
    ///
    /// ```swift
    /// ImportLimits.textProblem(of: SessionRecord(start: start, duration: 600, kind: "yoga", source: "csv", note: "a\u{0}b"))
    /// // "the note holds a NUL character (U+0000), which a store cannot keep; remove it from the file"
    /// ```
    public static func textProblem(of record: SessionRecord) -> String? {
        let fields: [(name: String, text: String?)] = [("kind", record.kind), ("source", record.source),
                                                       ("time zone", record.timeZone), ("note", record.note),
                                                       ("key", record.key)]
        guard let field = fields.first(where: { $0.text?.utf8.contains(0) == true }) else { return nil }
        return "the \(field.name) holds a NUL character (U+0000), which a store cannot keep; remove it from the file"
    }

    /// Why a text field of a posted session cannot be stored, or `nil` when it can: longer than ``maxFieldBytes``,
    /// or holding a NUL character, which a store cannot keep (see ``textProblem(of:)``).
    ///
    /// ```swift
    /// ImportLimits.fieldProblem(String(repeating: "a", count: 300))   // "is 300 bytes long, more than 256"
    /// ```
    public static func fieldProblem(_ text: String) -> String? {
        let bytes = text.utf8.count
        if bytes > maxFieldBytes { return "is \(bytes) bytes long, more than \(maxFieldBytes)" }
        if text.utf8.contains(0) { return "holds a NUL character (U+0000), which a store cannot keep" }
        return nil
    }

    /// A duration for a message: whole seconds when exact, otherwise as Swift prints a `Double` (`1e+300`).
    private static func seconds(_ value: TimeInterval) -> String {
        if let whole = Int64(exactly: value) { return String(whole) }
        return String(value)
    }
}
