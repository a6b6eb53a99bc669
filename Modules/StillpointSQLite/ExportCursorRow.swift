import Foundation
import GRDBSQLite
import StillpointCore

/// The current row of an export's cursor, read column by column straight from SQLite.
///
/// Reads each column as ``AttributeValue/init(column:of:as:)`` would, without making the value: text stays in
/// SQLite's buffer, numbers and dates are read as they are.
package struct ExportCursorRow: ExportRow {
    let statement: OpaquePointer
    /// The attribute types of the selected columns, in order.
    let types: ContiguousArray<AttributeType>

    package var count: Int { types.count }

    /// The value of column `index`, made as a fetch would make it.
    package func value(at index: Int) -> AttributeValue {
        AttributeValue(column: Int32(index), of: statement, as: types[index])
    }

    package func withField<T>(at index: Int, _ body: (ExportField) -> T) -> T {
        let column = Int32(index)
        if sqlite3_column_type(statement, column) == SQLITE_NULL { return body(.null) }
        switch types[index] {
        case .integer:
            return body(.integer(sqlite3_column_int64(statement, column)))
        case .double:
            return body(.double(sqlite3_column_double(statement, column)))
        case .bool:
            return body(.bool(sqlite3_column_int64(statement, column) != 0))
        case .date:
            // Through `Date`, as a fetched object's value would go, so the last bit rounds the same way.
            return body(.date(Date(timeIntervalSince1970: sqlite3_column_double(statement, column)).timeIntervalSince1970))
        case .string:
            guard let text = sqlite3_column_text(statement, column) else { return body(.text(UnsafeBufferPointer(start: nil, count: 0))) }
            return body(.text(UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column)))))
        case .uuid, .binary:
            return body(.value(AttributeValue(column: column, of: statement, as: types[index])))
        }
    }
}
