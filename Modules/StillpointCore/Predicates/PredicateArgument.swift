/// A value substituted for a `%@` placeholder, or a key substituted for `%K`, in a predicate format.
///
/// ```swift
/// try FetchPredicate("%K == %@", PredicateArgument.key("kind"), "yoga")
/// ```
public enum PredicateArgument: Sendable, Hashable {
    /// A single value, for `%@`.
    case value(AttributeValue)
    /// A list of values, for `%@` after `IN` or `BETWEEN`.
    case array([AttributeValue])
    /// An attribute name, for `%K`.
    case key(String)
}

extension PredicateArgument: PredicateArgumentConvertible {
    public var predicateArgument: PredicateArgument { self }
}

extension PredicateArgument: CustomStringConvertible {
    public var description: String {
        switch self {
        case .value(let value): return value.description
        case .array(let values): return "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .key(let name): return "key '\(name)'"
        }
    }
}
