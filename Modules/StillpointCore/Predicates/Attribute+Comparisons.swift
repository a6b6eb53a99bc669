// Comparisons of a typed attribute with values of its own type, built straight into the predicate tree: each
// makes the node the parser makes for the same format, so the SQL compiler and the evaluator treat both alike.

extension Attribute {
    /// Matches objects whose attribute equals `value`; `== nil` matches a missing value of an optional attribute.
    ///
    /// ```swift
    /// Session.kind == "yoga"   // kind == "yoga"
    /// Session.note == nil      // note == nil
    /// ```
    public static func == (attribute: Attribute, value: Value) -> FetchPredicate {
        attribute.comparison(.equal, .value(value.attributeValue))
    }

    /// Matches objects whose attribute differs from `value`, a missing value included; `!= nil` matches a present one.
    ///
    /// ```swift
    /// Session.kind != "yoga"   // kind != "yoga"
    /// Session.note != nil      // note != nil
    /// ```
    public static func != (attribute: Attribute, value: Value) -> FetchPredicate {
        attribute.comparison(.notEqual, .value(value.attributeValue))
    }

    /// Matches objects whose attribute equals one of `values`; an empty list matches nothing.
    ///
    /// ```swift
    /// Session.kind.in(["yoga", "run"])   // kind IN {"yoga", "run"}
    /// ```
    public func `in`(_ values: some Sequence<Value>) -> FetchPredicate {
        comparison(.in, .list(values.map(\.attributeValue)))
    }

    /// The node of `name op[options] rhs`, as the parser builds it.
    func comparison(_ op: PredicateOperator, _ rhs: PredicateOperand,
                    options: FetchPredicate.ComparisonOptions = []) -> FetchPredicate {
        FetchPredicate(root: .comparison(PredicateComparison(lhs: .key(name), op: op, options: options.modifiers, rhs: rhs)))
    }
}

extension Attribute where Value: ExpressibleByNilLiteral {
    /// Matches objects whose optional attribute has no value; the same as `== nil`.
    ///
    /// ```swift
    /// Session.note.isNil    // note == nil
    /// !Session.note.isNil   // NOT note == nil
    /// ```
    public var isNil: FetchPredicate {
        comparison(.equal, .value(.null))
    }
}

// Ordering: for attributes whose values are `Comparable`, and optional attributes of such values (a missing value
// matches no ordering, as in SQL).

extension Attribute where Value: Comparable {
    /// Matches objects whose attribute is less than `value`.
    ///
    /// ```swift
    /// Session.start < cutoff   // start < CAST(…, "NSDate")
    /// ```
    public static func < (attribute: Attribute, value: Value) -> FetchPredicate {
        attribute.comparison(.less, .value(value.attributeValue))
    }

    /// Matches objects whose attribute is at most `value`.
    public static func <= (attribute: Attribute, value: Value) -> FetchPredicate {
        attribute.comparison(.lessOrEqual, .value(value.attributeValue))
    }

    /// Matches objects whose attribute is greater than `value`.
    public static func > (attribute: Attribute, value: Value) -> FetchPredicate {
        attribute.comparison(.greater, .value(value.attributeValue))
    }

    /// Matches objects whose attribute is at least `value`.
    ///
    /// ```swift
    /// Session.duration >= 600   // duration >= 600.0
    /// ```
    public static func >= (attribute: Attribute, value: Value) -> FetchPredicate {
        attribute.comparison(.greaterOrEqual, .value(value.attributeValue))
    }

    /// Matches objects whose attribute lies in `low...high`, bounds included.
    ///
    /// ```swift
    /// Session.duration.between(600, 1_800)   // duration BETWEEN {600.0, 1800.0}
    /// ```
    public func between(_ low: Value, _ high: Value) -> FetchPredicate {
        comparison(.between, .list([low.attributeValue, high.attributeValue]))
    }
}

extension Attribute {
    /// Matches objects whose optional attribute has a value less than `value`.
    ///
    /// ```swift
    /// Item.score < 3.5   // score < 3.5, for an `Attribute<Double?>`
    /// ```
    public static func < <Wrapped: Comparable & AttributeValueConvertible>(attribute: Attribute, value: Wrapped) -> FetchPredicate
    where Value == Wrapped? {
        attribute.comparison(.less, .value(value.attributeValue))
    }

    /// Matches objects whose optional attribute has a value of at most `value`.
    public static func <= <Wrapped: Comparable & AttributeValueConvertible>(attribute: Attribute, value: Wrapped) -> FetchPredicate
    where Value == Wrapped? {
        attribute.comparison(.lessOrEqual, .value(value.attributeValue))
    }

    /// Matches objects whose optional attribute has a value greater than `value`.
    public static func > <Wrapped: Comparable & AttributeValueConvertible>(attribute: Attribute, value: Wrapped) -> FetchPredicate
    where Value == Wrapped? {
        attribute.comparison(.greater, .value(value.attributeValue))
    }

    /// Matches objects whose optional attribute has a value of at least `value`.
    public static func >= <Wrapped: Comparable & AttributeValueConvertible>(attribute: Attribute, value: Wrapped) -> FetchPredicate
    where Value == Wrapped? {
        attribute.comparison(.greaterOrEqual, .value(value.attributeValue))
    }

    /// Matches objects whose optional attribute has a value in `low...high`, bounds included.
    public func between<Wrapped: Comparable & AttributeValueConvertible>(_ low: Wrapped, _ high: Wrapped) -> FetchPredicate
    where Value == Wrapped? {
        comparison(.between, .list([low.attributeValue, high.attributeValue]))
    }
}
