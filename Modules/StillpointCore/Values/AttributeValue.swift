import Foundation

/// A value stored in one attribute of an object.
///
/// Every attribute type of a schema maps to one case; `null` stands for a missing value.
///
/// ```swift
/// let value: AttributeValue = .string("yoga")
/// value.compare(to: .string("meditation"))   // .orderedDescending
/// ```
public enum AttributeValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case double(Double)
    case string(String)
    case bool(Bool)
    case date(Date)
    case uuid(UUID)
    case binary(Data)

    /// Whether the value is `null`.
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The value as a number, for comparisons and arithmetic across integer, double, bool and date values.
    ///
    /// Dates compare by their seconds since 1970, as they are stored.
    public var numericValue: Double? {
        switch self {
        case .integer(let value): return Double(value)
        case .double(let value): return value
        case .bool(let value): return value ? 1 : 0
        case .date(let value): return value.timeIntervalSince1970
        default: return nil
        }
    }

    /// Orders two values as SQLite orders them: `null` first, then numbers, then text, then blobs.
    ///
    /// Returns `nil` when the two values cannot be ordered meaningfully (a UUID against a number).
    public func compare(to other: AttributeValue) -> ComparisonResult? {
        switch (self, other) {
        case (.null, .null): return .orderedSame
        case (.null, _): return .orderedAscending
        case (_, .null): return .orderedDescending
        case (.string(let lhs), .string(let rhs)): return Self.order(lhs, rhs)
        case (.uuid(let lhs), .uuid(let rhs)): return Self.order(lhs.uuidString, rhs.uuidString)
        case (.binary(let lhs), .binary(let rhs)):
            return Self.order(lhs.lexicographicallyPrecedes(rhs) ? 0 : (lhs == rhs ? 1 : 2), 1)
        default:
            guard let lhs = numericValue, let rhs = other.numericValue else { return nil }
            return Self.order(lhs, rhs)
        }
    }

    private static func order<T: Comparable>(_ lhs: T, _ rhs: T) -> ComparisonResult {
        lhs < rhs ? .orderedAscending : (lhs == rhs ? .orderedSame : .orderedDescending)
    }
}

extension AttributeValue: CustomStringConvertible {
    public var description: String {
        switch self {
        case .null: return "nil"
        case .integer(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return "\"\(value)\""
        case .bool(let value): return value ? "true" : "false"
        case .date(let value): return ISO8601DateFormatter().string(from: value)
        case .uuid(let value): return value.uuidString
        case .binary(let value): return "<\(value.count) bytes>"
        }
    }
}
