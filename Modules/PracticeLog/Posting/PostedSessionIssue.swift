/// What is wrong with one session of a post of sessions: its index in the array, the field, and why.
///
/// ```swift
/// let issue = PostedSessionIssue(index: 3, field: "duration", reason: "is -5; a session lasts longer than 0 seconds")
/// issue.description   // "[3].duration is -5; a session lasts longer than 0 seconds"
/// issue.pointer       // "/3/duration"
/// ```
public struct PostedSessionIssue: Error, Sendable, Hashable, CustomStringConvertible {
    /// The session's index in the posted array, from 0.
    public var index: Int
    /// The field at fault (`start`, `duration`, `kind`, `source`, `time_zone`, `key`, or one the array should not
    /// have); empty when the element itself is wrong (not an object).
    public var field: String
    /// Why, as a phrase that follows the field's name.
    public var reason: String

    public init(index: Int, field: String, reason: String) {
        self.index = index
        self.field = field
        self.reason = reason
    }

    public var description: String {
        "[\(index)]\(field.isEmpty ? "" : ".\(field)") \(reason)"
    }

    /// Where the issue is in the posted JSON, as a JSON Pointer (RFC 6901): `/3/duration`.
    public var pointer: String {
        let escaped = field.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
        return "/\(index)" + (field.isEmpty ? "" : "/\(escaped)")
    }

    /// A value from the post, quoted for a one-line message: control characters escaped, a long one shortened.
    static func quoted(_ value: String) -> String {
        ImportIssue.quoted(value.unicodeScalars.map { $0.properties.generalCategory == .control ? $0.escaped(asASCII: true) : String($0) }.joined())
    }
}
