/// Why a predicate a person wrote cannot run (``PredicateText``): the text, shown by its start when long, and the
/// reason with its column.
///
/// ```swift
/// PredicateTextError(text: "kind ==", reason: "expected a value after '==' at column 8").description
/// // "\"kind ==\": expected a value after '==' at column 8"
/// ```
public struct PredicateTextError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The predicate as written.
    public var text: String
    /// What is wrong, and at which column when the parser knows.
    public var reason: String

    public init(text: String, reason: String) {
        self.text = text
        self.reason = reason
    }

    /// The text quoted, by its first 50 characters when longer than 60, so that the message stays one readable line.
    public var description: String {
        let shown = text.count > 60 ? text.prefix(50) + "…" : Substring(text)
        return "\"\(shown)\": \(reason)"
    }
}
