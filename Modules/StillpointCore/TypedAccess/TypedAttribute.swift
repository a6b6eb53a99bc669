/// An attribute of `Root`, or of an object `Root` reaches through to-one relationships, in a typed predicate:
/// its comparisons make a ``TypedPredicate`` of `Root`, so they can't be joined with another entity's.
///
/// ```swift
/// FetchRequest(Session.self, matching: { $0.duration >= 600 && $0.kind.in(["yoga", "run"]) })
/// FetchRequest(Entry.self, matching: { $0.batch.name.beginsWith("morn") })
/// ```
///
/// Each comparison is ``Attribute``'s own, over the key path: the same operators, values and options.
public struct TypedAttribute<Root: Entity, Value: AttributeValueConvertible>: Sendable {
    /// The key path from `Root` to the attribute: `"duration"`, or `"batch.name"` through a to-one.
    let path: String

    /// The untyped attribute at the key path, whose comparisons build the predicate.
    var untyped: Attribute<Value> { Attribute(path) }
}

extension TypedAttribute {
    /// Matches objects whose attribute equals `value`; `== nil` matches a missing value.
    public static func == (attribute: TypedAttribute, value: Value) -> TypedPredicate<Root> {
        TypedPredicate(attribute.untyped == value)
    }

    /// Matches objects whose attribute differs from `value`, a missing value included.
    public static func != (attribute: TypedAttribute, value: Value) -> TypedPredicate<Root> {
        TypedPredicate(attribute.untyped != value)
    }

    /// Matches objects whose attribute equals one of `values`.
    public func `in`(_ values: some Sequence<Value>) -> TypedPredicate<Root> {
        TypedPredicate(untyped.in(values))
    }
}

extension TypedAttribute where Value: ExpressibleByNilLiteral {
    /// Matches objects whose optional attribute has no value.
    public var isNil: TypedPredicate<Root> { TypedPredicate(untyped.isNil) }
}

extension TypedAttribute where Value: Comparable {
    public static func < (attribute: TypedAttribute, value: Value) -> TypedPredicate<Root> { TypedPredicate(attribute.untyped < value) }
    public static func <= (attribute: TypedAttribute, value: Value) -> TypedPredicate<Root> { TypedPredicate(attribute.untyped <= value) }
    public static func > (attribute: TypedAttribute, value: Value) -> TypedPredicate<Root> { TypedPredicate(attribute.untyped > value) }
    public static func >= (attribute: TypedAttribute, value: Value) -> TypedPredicate<Root> { TypedPredicate(attribute.untyped >= value) }

    /// Matches objects whose attribute lies in `low...high`, bounds included.
    public func between(_ low: Value, _ high: Value) -> TypedPredicate<Root> { TypedPredicate(untyped.between(low, high)) }
}

// Ordering of optional attributes takes the wrapped type; a missing value matches none.
extension TypedAttribute {
    public static func < <Wrapped: Comparable & AttributeValueConvertible>(attribute: TypedAttribute, value: Wrapped) -> TypedPredicate<Root>
    where Value == Wrapped? { TypedPredicate(attribute.untyped < value) }

    public static func <= <Wrapped: Comparable & AttributeValueConvertible>(attribute: TypedAttribute, value: Wrapped) -> TypedPredicate<Root>
    where Value == Wrapped? { TypedPredicate(attribute.untyped <= value) }

    public static func > <Wrapped: Comparable & AttributeValueConvertible>(attribute: TypedAttribute, value: Wrapped) -> TypedPredicate<Root>
    where Value == Wrapped? { TypedPredicate(attribute.untyped > value) }

    public static func >= <Wrapped: Comparable & AttributeValueConvertible>(attribute: TypedAttribute, value: Wrapped) -> TypedPredicate<Root>
    where Value == Wrapped? { TypedPredicate(attribute.untyped >= value) }
}

extension TypedAttribute where Value: TextAttributeValue {
    /// Matches objects whose text starts with `prefix`.
    public func beginsWith(_ prefix: String, options: FetchPredicate.ComparisonOptions = []) -> TypedPredicate<Root> {
        TypedPredicate(untyped.beginsWith(prefix, options: options))
    }

    /// Matches objects whose text contains `text`.
    public func contains(_ text: String, options: FetchPredicate.ComparisonOptions = []) -> TypedPredicate<Root> {
        TypedPredicate(untyped.contains(text, options: options))
    }

    /// Matches objects whose text ends with `suffix`.
    public func endsWith(_ suffix: String, options: FetchPredicate.ComparisonOptions = []) -> TypedPredicate<Root> {
        TypedPredicate(untyped.endsWith(suffix, options: options))
    }

    /// Matches objects whose text matches `pattern` (`*` any run of characters, `?` one).
    public func like(_ pattern: String, options: FetchPredicate.ComparisonOptions = []) -> TypedPredicate<Root> {
        TypedPredicate(untyped.like(pattern, options: options))
    }
}
