/// A record that an import skipped, with the reason and where it was.
///
/// ```swift
/// ImportRecordIssue(position: 17, reason: "duration '1:x:0' is not H:M:S").description
/// // "record 17: duration '1:x:0' is not H:M:S"
/// ```
public struct ImportRecordIssue: Sendable, Hashable, CustomStringConvertible {
    /// Where the record is in its source (a line or row number), if known.
    public var position: Int?
    public var reason: String

    public init(position: Int?, reason: String) {
        self.position = position
        self.reason = reason
    }

    public var description: String {
        position.map { "record \($0): \(reason)" } ?? reason
    }
}
