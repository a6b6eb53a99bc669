import GRDBSQLite
import StillpointCore

extension ScannedRowColumns {
    /// SQLite's statement, read with its column functions.
    static let sqlite = ScannedRowColumns(
        integer: { statement, column in sqlite3_column_int64(statement, column) },
        isNull: { statement, column in sqlite3_column_type(statement, column) == SQLITE_NULL },
        number: { statement, column, value in
            switch sqlite3_column_type(statement, column) {
            case SQLITE_INTEGER, SQLITE_FLOAT:
                value?.pointee = sqlite3_column_double(statement, column)
                return true
            default:
                return false
            }
        },
        text: { statement, column, bytes, count in
            guard sqlite3_column_type(statement, column) != SQLITE_NULL else { return false }
            // Text first, then its length: the order SQLite documents for a stable pointer.
            let text = sqlite3_column_text(statement, column)
            bytes?.pointee = UnsafeRawPointer(text)
            count?.pointee = text == nil ? 0 : Int(sqlite3_column_bytes(statement, column))
            return true
        })
}
