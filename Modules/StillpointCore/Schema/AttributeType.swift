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
