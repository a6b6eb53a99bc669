import Foundation

/// A Swift type that can be stored in an attribute.
///
/// Conformances exist for `Int`, `Int32`, `Int64`, `Double`, `String`, `Bool`, `Date`, `UUID`, `Data` and
/// optionals of them. An optional type declares an optional attribute.
///
/// ```swift
/// static let note = Attribute<String?>("note")   // optional
/// static let uid = Attribute<Int32>("uid")       // required
/// ```
///
/// Every such value can also fill a `%@` placeholder of a ``FetchPredicate`` format.
public protocol AttributeValueConvertible: PredicateArgumentConvertible {
    /// The type of the column that stores the value.
    static var attributeType: AttributeType { get }
    /// Whether `nil` is a valid value.
    static var isOptional: Bool { get }
    /// The stored form of the value.
    var attributeValue: AttributeValue { get }
    /// Reads a stored value, or returns `nil` when it has another type.
    init?(attributeValue: AttributeValue)
    /// The integers the type holds, when fewer than a 64-bit column holds (`Int32`'s range); `nil` for any other.
    /// A save or batch refuses an integer outside it, and a stored one outside it is an error when read.
    ///
    /// ```swift
    /// Int32.integerRange   // -2147483648...2147483647
    /// Int64.integerRange   // nil: the column's whole range
    /// ```
    static var integerRange: ClosedRange<Int64>? { get }
}

extension AttributeValueConvertible {
    public static var isOptional: Bool { false }
    public static var integerRange: ClosedRange<Int64>? { nil }
    public var predicateArgument: PredicateArgument { .value(attributeValue) }
}

extension Int64: AttributeValueConvertible {
    public static var attributeType: AttributeType { .integer }
    public var attributeValue: AttributeValue { .integer(self) }
    public init?(attributeValue: AttributeValue) {
        switch attributeValue {
        case .integer(let value): self = value
        case .double(let value): self.init(exactly: value)
        case .bool(let value): self = value ? 1 : 0
        default: return nil
        }
    }
}

extension Int: AttributeValueConvertible {
    public static var attributeType: AttributeType { .integer }
    /// `Int`'s range: no limit where it has 64 bits (an attribute then records none), 32 bits on a 32-bit platform.
    public static var integerRange: ClosedRange<Int64>? { Int64(Int.min)...Int64(Int.max) }
    public var attributeValue: AttributeValue { .integer(Int64(self)) }
    public init?(attributeValue: AttributeValue) {
        guard let value = Int64(attributeValue: attributeValue) else { return nil }
        self.init(exactly: value)
    }
}

extension Int32: AttributeValueConvertible {
    public static var attributeType: AttributeType { .integer }
    public static var integerRange: ClosedRange<Int64>? { Int64(Int32.min)...Int64(Int32.max) }
    public var attributeValue: AttributeValue { .integer(Int64(self)) }
    public init?(attributeValue: AttributeValue) {
        guard let value = Int64(attributeValue: attributeValue) else { return nil }
        self.init(exactly: value)
    }
}

extension Double: AttributeValueConvertible {
    public static var attributeType: AttributeType { .double }
    public var attributeValue: AttributeValue { .double(self) }
    public init?(attributeValue: AttributeValue) {
        switch attributeValue {
        case .double(let value): self = value
        case .integer(let value): self = Double(value)
        default: return nil
        }
    }
}

extension String: AttributeValueConvertible {
    public static var attributeType: AttributeType { .string }
    public var attributeValue: AttributeValue { .string(self) }
    public init?(attributeValue: AttributeValue) {
        guard case .string(let value) = attributeValue else { return nil }
        self = value
    }
}

extension Bool: AttributeValueConvertible {
    public static var attributeType: AttributeType { .bool }
    public var attributeValue: AttributeValue { .bool(self) }
    public init?(attributeValue: AttributeValue) {
        switch attributeValue {
        case .bool(let value): self = value
        case .integer(let value): self = value != 0
        default: return nil
        }
    }
}

extension Date: AttributeValueConvertible {
    public static var attributeType: AttributeType { .date }
    public var attributeValue: AttributeValue { .date(self) }
    public init?(attributeValue: AttributeValue) {
        switch attributeValue {
        case .date(let value): self = value
        case .double(let value): self.init(timeIntervalSince1970: value)
        case .integer(let value): self.init(timeIntervalSince1970: Double(value))
        default: return nil
        }
    }
}

extension UUID: AttributeValueConvertible {
    public static var attributeType: AttributeType { .uuid }
    public var attributeValue: AttributeValue { .uuid(self) }
    public init?(attributeValue: AttributeValue) {
        switch attributeValue {
        case .uuid(let value): self = value
        case .string(let value): self.init(uuidString: value)
        default: return nil
        }
    }
}

extension Data: AttributeValueConvertible {
    public static var attributeType: AttributeType { .binary }
    public var attributeValue: AttributeValue { .binary(self) }
    public init?(attributeValue: AttributeValue) {
        guard case .binary(let value) = attributeValue else { return nil }
        self = value
    }
}

// Spelled out because a conditional conformance doesn't imply the inherited protocol.
extension Optional: PredicateArgumentConvertible where Wrapped: AttributeValueConvertible {}

extension Optional: AttributeValueConvertible where Wrapped: AttributeValueConvertible {
    public static var attributeType: AttributeType { Wrapped.attributeType }
    public static var isOptional: Bool { true }
    public static var integerRange: ClosedRange<Int64>? { Wrapped.integerRange }
    public var attributeValue: AttributeValue { self?.attributeValue ?? .null }
    public init?(attributeValue: AttributeValue) {
        if attributeValue.isNull {
            self = .none
        } else if let value = Wrapped(attributeValue: attributeValue) {
            self = .some(value)
        } else {
            return nil
        }
    }
}
