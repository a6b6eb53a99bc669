import Foundation
import GRDBSQLite
import StillpointCore

/// SQLite's "copy the bytes now" destructor, for binding Swift strings and data.
private let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

extension AttributeValue {
    /// Binds the value to a parameter of a prepared statement, in the store's storage convention.
    ///
    /// Dates are seconds since 1970, UUIDs their string, booleans 0 or 1.
    func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
        switch self {
        case .null: return sqlite3_bind_null(statement, index)
        case .integer(let value): return sqlite3_bind_int64(statement, index, value)
        case .double(let value): return sqlite3_bind_double(statement, index, value)
        case .bool(let value): return sqlite3_bind_int64(statement, index, value ? 1 : 0)
        case .date(let value): return sqlite3_bind_double(statement, index, value.timeIntervalSince1970)
        case .string(var value):
            // `withUTF8` hands over the bytes in place (a small string's on the stack): no C-string copy is made.
            return value.withUTF8 { bytes in
                guard let base = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite3_bind_text(statement, index, "", 0, transientDestructor)  // empty text, never NULL
                }
                // Text beyond 2 GB is more than SQLite stores: an error, not a trap in the conversion.
                guard let count = Int32(exactly: bytes.count) else { return SQLITE_TOOBIG }
                return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                    sqlite3_bind_text(statement, index, $0, count, transientDestructor)
                }
            }
        case .uuid(let value): return sqlite3_bind_text(statement, index, value.uuidString, -1, transientDestructor)
        case .binary(let value):
            guard let count = Int32(exactly: value.count) else { return SQLITE_TOOBIG }
            return value.withUnsafeBytes { bytes in
                sqlite3_bind_blob(statement, index, bytes.baseAddress, count, transientDestructor)
            }
        }
    }

    /// Reads column `index` of the current row as an attribute of `type`; `nil` reads it by its storage class.
    ///
    /// Text or bytes in a numeric column (another program wrote them; SQLite's affinity keeps what is no number)
    /// are read as what they are, not as SQLite's conversion of them to 0, so that ``StoreRows`` can name the row.
    init(column index: Int32, of statement: OpaquePointer, as type: AttributeType?) {
        let storageClass = sqlite3_column_type(statement, index)
        if storageClass == SQLITE_NULL {
            self = .null
            return
        }
        let isNumeric = storageClass == SQLITE_INTEGER || storageClass == SQLITE_FLOAT
        if !isNumeric, let type, [.integer, .bool, .double, .date].contains(type) {
            self.init(column: index, of: statement, as: nil)
            return
        }
        switch type {
        case .integer: self = .integer(sqlite3_column_int64(statement, index))
        case .bool: self = .bool(sqlite3_column_int64(statement, index) != 0)
        case .double: self = .double(sqlite3_column_double(statement, index))
        case .date: self = .date(Date(timeIntervalSince1970: sqlite3_column_double(statement, index)))
        case .string: self = .string(Self.text(column: index, of: statement))
        case .uuid:
            let text = Self.text(column: index, of: statement)
            self = UUID(uuidString: text).map(AttributeValue.uuid) ?? .string(text)
        case .binary: self = .binary(Self.blob(column: index, of: statement))
        case nil:
            switch storageClass {
            case SQLITE_INTEGER: self = .integer(sqlite3_column_int64(statement, index))
            case SQLITE_FLOAT: self = .double(sqlite3_column_double(statement, index))
            case SQLITE_TEXT: self = .string(Self.text(column: index, of: statement))
            default: self = .binary(Self.blob(column: index, of: statement))
            }
        }
    }

    private static func text(column index: Int32, of statement: OpaquePointer) -> String {
        guard let bytes = sqlite3_column_text(statement, index) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    private static func blob(column index: Int32, of statement: OpaquePointer) -> Data {
        guard let bytes = sqlite3_column_blob(statement, index) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, index)))
    }
}
