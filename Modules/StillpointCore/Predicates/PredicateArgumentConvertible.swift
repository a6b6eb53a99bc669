/// A Swift value that can fill a placeholder of a predicate format.
///
/// Every ``AttributeValueConvertible`` type conforms, and so do arrays of them (for `IN` and `BETWEEN`).
///
/// ```swift
/// try FetchPredicate("kind IN %@ AND duration >= %@", ["yoga", "run"], 600)
/// ```
public protocol PredicateArgumentConvertible: Sendable {
    /// The argument this value stands for.
    var predicateArgument: PredicateArgument { get }
}

extension AttributeValue: PredicateArgumentConvertible {
    public var predicateArgument: PredicateArgument { .value(self) }
}

extension Array: PredicateArgumentConvertible where Element: AttributeValueConvertible {
    public var predicateArgument: PredicateArgument { .array(map(\.attributeValue)) }
}
