/// A row or element that an import skipped, with the reason.
///
/// ```swift
/// let issue = ImportIssue(line: 17, reason: "duration '1:x:0' is not H:M:S")
/// issue.description   // "line 17: duration '1:x:0' is not H:M:S"
/// ```
public struct ImportIssue: Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line of the file where the skipped row or element starts.
    public var line: Int
    /// Why it was skipped.
    public var reason: String

    public init(line: Int, reason: String) {
        self.line = line
        self.reason = reason
    }

    public var description: String { "line \(line): \(reason)" }
}

extension ImportIssue {
    /// A value quoted for a reason, shortened so a runaway field can't flood the report.
    static func quoted(_ value: String, limit: Int = 40) -> String {
        value.count <= limit ? "'\(value)'" : "'\(value.prefix(limit))…'"
    }
}
