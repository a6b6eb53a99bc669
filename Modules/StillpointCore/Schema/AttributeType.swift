import Foundation

/// The type of an attribute, and of the column that stores it.
public enum AttributeType: String, Sendable, Hashable, CaseIterable {
    case integer
    case double
    case string
    case bool
    case date
    case uuid
    case binary

    /// The SQLite column type. Dates are stored as seconds since 1970 (REAL), UUIDs as text.
    package var sqlType: String {
        switch self {
        case .integer, .bool: return "INTEGER"
        case .double, .date: return "REAL"
        case .string, .uuid: return "TEXT"
        case .binary: return "BLOB"
        }
    }
}

extension AttributeType {
    /// The value an attribute of this type reads as when there is none to read: 0, "", false, 1970, the nil UUID.
    var emptyValue: AttributeValue {
        switch self {
        case .integer: return .integer(0)
        case .double: return .double(0)
        case .string: return .string("")
        case .bool: return .bool(false)
        case .date: return .date(Date(timeIntervalSince1970: 0))
        case .uuid: return .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
        case .binary: return .binary(Data())
        }
    }
}
