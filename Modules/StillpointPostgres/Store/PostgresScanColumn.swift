import StillpointCore

/// How a column of a scanned libpq result reads in place, from its attribute's type: the same values
/// ``PostgresValueText/value(_:as:)`` would make, without making them.
enum PostgresScanColumn: UInt8 {
    /// `.string`: text, lent as bytes; never a number.
    case text
    /// `.integer`, `.double`, `.date`: a number when its text is one; never text.
    case number
    /// `.bool`: always a number (1 or 0), as ``PostgresValueText`` reads `1`, `0`, `t` and `true`.
    case bool
    /// `.uuid`, `.binary`: neither a number nor text.
    case other

    init(_ type: AttributeType) {
        switch type {
        case .string: self = .text
        case .integer, .double, .date: self = .number
        case .bool: self = .bool
        case .uuid, .binary: self = .other
        }
    }
}
