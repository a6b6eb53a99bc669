import Foundation

/// One practice session read from an export, ready to be stored.
///
/// ```swift
/// let record = SessionRecord(start: Date(timeIntervalSince1970: 1_554_901_834), duration: 1_500,
///                            kind: "meditation", source: "insight_timer")
/// record.key   // "insight_timer|1554901834|1554903334"
/// ```
public struct SessionRecord: Sendable, Hashable {
    /// When the session started.
    public var start: Date
    /// How long it lasted, in seconds.
    public var duration: TimeInterval
    /// The normalized kind: lowercase `snake_case` such as `meditation`, `yoga`, `tai_chi`.
    public var kind: String
    /// Where it came from: `insight_timer`, an Apple Health source name, `csv` or a name given to the import.
    public var source: String
    /// The IANA time zone the session happened in, when the export says so.
    public var timeZone: String?
    /// Free text that came with the session (an Insight Timer preset, a note column).
    public var note: String?
    /// Identifies the session across imports, so importing the same file twice adds nothing.
    ///
    /// By default `source|start|end`, both dates in whole seconds since 1970.
    public var key: String
    /// The id of the practitioner whose session it is, when the file names one on each row (a CSV file's
    /// practitioner column); `nil`: the import's practitioner.
    public var practitioner: String?

    /// Creates a record; `key` defaults to `source|start|end` in whole epoch seconds.
    public init(
        start: Date,
        duration: TimeInterval,
        kind: String,
        source: String,
        timeZone: String? = nil,
        note: String? = nil,
        key: String? = nil
    ) {
        self.start = start
        self.duration = duration
        self.kind = kind
        self.source = source
        self.timeZone = timeZone
        self.note = note
        self.key = key ?? Self.key(source: source, start: start, end: start.addingTimeInterval(duration))
    }

    /// The default key: whole seconds keep it stable against sub-second noise between exports.
    ///
    /// Total over any date: one too far out for an `Int64` (an endless duration) is written as the `Double`
    /// it is, instead of trapping; ``ImportLimits`` keeps such records out of a store anyway.
    static func key(source: String, start: Date, end: Date) -> String {
        "\(source)|\(wholeSeconds(start))|\(wholeSeconds(end))"
    }

    private static func wholeSeconds(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970.rounded()
        if let whole = Int64(exactly: seconds) { return String(whole) }
        return String(seconds)
    }
}
