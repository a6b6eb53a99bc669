/// A number computed from typed attributes, for typed predicates with arithmetic: the same node the format
/// parser builds for the same arithmetic, so both compile and evaluate alike (see <doc:PredicateFormat>).
///
/// ```swift
/// let long = Session.duration / 60 > 20                     // duration / 60.0 > 20
/// let near = (Session.duration - 600).magnitude < 60         // abs(duration - 600.0) < 60
/// let area = Session.duration.arithmetic.raised(to: 2) > 4   // duration ** 2 > 4
/// let even = Session.rounds % 2 == 0                         // modulus:by:(rounds, 2) == 0 (an Int attribute)
/// ```
public struct AttributeArithmetic: Sendable, Hashable {
    let operand: PredicateOperand

    init(_ operand: PredicateOperand) {
        self.operand = operand
    }

    /// `abs(…)` of the number.
    public var magnitude: AttributeArithmetic { AttributeArithmetic(.function(.abs, [operand])) }

    /// `sqrt(…)` of the number, nil for a negative one.
    public func squareRoot() -> AttributeArithmetic { AttributeArithmetic(.function(.sqrt, [operand])) }

    /// `floor(…)`: the largest whole number not above the number.
    public func roundedDown() -> AttributeArithmetic { AttributeArithmetic(.function(.floor, [operand])) }

    /// `ceiling(…)`: the smallest whole number not below the number.
    public func roundedUp() -> AttributeArithmetic { AttributeArithmetic(.function(.ceiling, [operand])) }

    /// `trunc(…)`: the number without its fraction, toward zero.
    public func truncated() -> AttributeArithmetic { AttributeArithmetic(.function(.trunc, [operand])) }

    /// `self ** exponent`, in doubles.
    public func raised(to exponent: AttributeArithmetic) -> AttributeArithmetic { Self.combine(.power, operand, exponent.operand) }

    /// `self ** exponent`, in doubles.
    public func raised(to exponent: some AttributeValueConvertible & Numeric) -> AttributeArithmetic {
        Self.combine(.power, operand, .value(exponent.attributeValue))
    }

    static func combine(_ op: PredicateArithmeticOperator, _ lhs: PredicateOperand, _ rhs: PredicateOperand) -> AttributeArithmetic {
        AttributeArithmetic(.arithmetic(op, lhs, rhs))
    }

    func comparison(_ op: PredicateOperator, _ value: some AttributeValueConvertible & Numeric) -> FetchPredicate {
        FetchPredicate(root: .comparison(PredicateComparison(lhs: operand, op: op, options: [], rhs: .value(value.attributeValue))))
    }

    public static func + (lhs: AttributeArithmetic, rhs: AttributeArithmetic) -> AttributeArithmetic { combine(.add, lhs.operand, rhs.operand) }
    public static func - (lhs: AttributeArithmetic, rhs: AttributeArithmetic) -> AttributeArithmetic { combine(.subtract, lhs.operand, rhs.operand) }
    public static func * (lhs: AttributeArithmetic, rhs: AttributeArithmetic) -> AttributeArithmetic { combine(.multiply, lhs.operand, rhs.operand) }
    public static func / (lhs: AttributeArithmetic, rhs: AttributeArithmetic) -> AttributeArithmetic { combine(.divide, lhs.operand, rhs.operand) }
    public static prefix func - (operand: AttributeArithmetic) -> AttributeArithmetic { AttributeArithmetic(.function(.negate, [operand.operand])) }
    /// `modulus:by:`: the remainder of a division toward zero, as Swift's `%` and `truncatingRemainder`; nil by zero.
    public static func % (lhs: AttributeArithmetic, rhs: AttributeArithmetic) -> AttributeArithmetic {
        AttributeArithmetic(.function(.modulus, [lhs.operand, rhs.operand]))
    }
    public static func % (lhs: AttributeArithmetic, rhs: some AttributeValueConvertible & Numeric) -> AttributeArithmetic {
        AttributeArithmetic(.function(.modulus, [lhs.operand, .value(rhs.attributeValue)]))
    }

    public static func + (lhs: AttributeArithmetic, rhs: some AttributeValueConvertible & Numeric) -> AttributeArithmetic { combine(.add, lhs.operand, .value(rhs.attributeValue)) }
    public static func - (lhs: AttributeArithmetic, rhs: some AttributeValueConvertible & Numeric) -> AttributeArithmetic { combine(.subtract, lhs.operand, .value(rhs.attributeValue)) }
    public static func * (lhs: AttributeArithmetic, rhs: some AttributeValueConvertible & Numeric) -> AttributeArithmetic { combine(.multiply, lhs.operand, .value(rhs.attributeValue)) }
    public static func / (lhs: AttributeArithmetic, rhs: some AttributeValueConvertible & Numeric) -> AttributeArithmetic { combine(.divide, lhs.operand, .value(rhs.attributeValue)) }

    public static func == (lhs: AttributeArithmetic, rhs: some AttributeValueConvertible & Numeric) -> FetchPredicate { lhs.comparison(.equal, rhs) }
    public static func != (lhs: AttributeArithmetic, rhs: some AttributeValueConvertible & Numeric) -> FetchPredicate { lhs.comparison(.notEqual, rhs) }
    public static func < (lhs: AttributeArithmetic, rhs: some AttributeValueConvertible & Numeric) -> FetchPredicate { lhs.comparison(.less, rhs) }
    public static func <= (lhs: AttributeArithmetic, rhs: some AttributeValueConvertible & Numeric) -> FetchPredicate { lhs.comparison(.lessOrEqual, rhs) }
    public static func > (lhs: AttributeArithmetic, rhs: some AttributeValueConvertible & Numeric) -> FetchPredicate { lhs.comparison(.greater, rhs) }
    public static func >= (lhs: AttributeArithmetic, rhs: some AttributeValueConvertible & Numeric) -> FetchPredicate { lhs.comparison(.greaterOrEqual, rhs) }
}

// Arithmetic on a numeric attribute starts an ``AttributeArithmetic``; its other operand is a value of the
// attribute's own type, or another attribute of that type.
extension Attribute where Value: Numeric {
    /// The attribute as an operand of arithmetic.
    public var arithmetic: AttributeArithmetic { AttributeArithmetic(.key(name)) }

    public static func + (lhs: Attribute, rhs: Value) -> AttributeArithmetic { lhs.arithmetic + rhs }
    public static func - (lhs: Attribute, rhs: Value) -> AttributeArithmetic { lhs.arithmetic - rhs }
    public static func * (lhs: Attribute, rhs: Value) -> AttributeArithmetic { lhs.arithmetic * rhs }
    public static func / (lhs: Attribute, rhs: Value) -> AttributeArithmetic { lhs.arithmetic / rhs }
    public static func + (lhs: Attribute, rhs: Attribute) -> AttributeArithmetic { lhs.arithmetic + rhs.arithmetic }
    public static func - (lhs: Attribute, rhs: Attribute) -> AttributeArithmetic { lhs.arithmetic - rhs.arithmetic }
    public static func * (lhs: Attribute, rhs: Attribute) -> AttributeArithmetic { lhs.arithmetic * rhs.arithmetic }
    public static func / (lhs: Attribute, rhs: Attribute) -> AttributeArithmetic { lhs.arithmetic / rhs.arithmetic }
    public static prefix func - (operand: Attribute) -> AttributeArithmetic { -operand.arithmetic }
}

// `%` as Swift has it: on integers (PostgreSQL refuses a remainder of doubles, see <doc:PredicateFormat>).
extension Attribute where Value: BinaryInteger {
    public static func % (lhs: Attribute, rhs: Value) -> AttributeArithmetic { lhs.arithmetic % rhs }
}

extension Attribute where Value: TextAttributeValue {
    /// `length:(…)`: the number of characters of the text, nil for a missing one.
    ///
    /// ```swift
    /// Session.kind.length > 4   // length:(kind) > 4
    /// ```
    public var length: AttributeArithmetic { AttributeArithmetic(.function(.length, [.key(name)])) }
}
