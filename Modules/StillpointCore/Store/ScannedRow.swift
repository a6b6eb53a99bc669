import GRDBSQLite

/// One row of a column scan (``ObjectContext/scanRows(of:attributes:rowIDs:_:)``), read in place: on SQLite,
/// numbers come straight from the statement and text is lent as UTF-8 bytes, so that a scan of a million rows
/// makes no value and allocates nothing per row; other stores hand the row's values.
///
/// Valid only inside the scan's body; columns are numbered in the order the scan named its attributes.
///
/// ```swift
/// try context.scanRows(of: Session.entity, attributes: ["start", "duration"]) { row in
///     total += row.double(1) ?? 0
/// }
/// ```
public struct ScannedRow: ~Copyable {
    private enum Source {
        /// A SQLite statement on a row of `SELECT _id, attributes...`.
        case statement(OpaquePointer)
        case values(rowID: Int64, ContiguousArray<AttributeValue>)
    }

    private let source: Source

    init(statement: OpaquePointer) {
        source = .statement(statement)
    }

    init(rowID: Int64, values: ContiguousArray<AttributeValue>) {
        source = .values(rowID: rowID, values)
    }

    /// The row's permanent ID within its entity.
    public var rowID: Int64 {
        switch source {
        case .statement(let statement): return sqlite3_column_int64(statement, 0)
        case .values(let rowID, _): return rowID
        }
    }

    /// Whether the attribute at `column` is null.
    public func isNull(_ column: Int) -> Bool {
        switch source {
        case .statement(let statement): return sqlite3_column_type(statement, Int32(column) + 1) == SQLITE_NULL
        case .values(_, let values): return values[column] == .null
        }
    }

    /// The attribute at `column` as a number (a date as seconds since 1970), `nil` when it holds no number (null,
    /// or text or bytes a damaged store may hold).
    public func double(_ column: Int) -> Double? {
        switch source {
        case .statement(let statement):
            let index = Int32(column) + 1
            switch sqlite3_column_type(statement, index) {
            case SQLITE_INTEGER, SQLITE_FLOAT: return sqlite3_column_double(statement, index)
            default: return nil
            }
        case .values(_, let values):
            return values[column].numericValue
        }
    }

    /// Calls `body` with the UTF-8 bytes of the text attribute at `column`, `nil` when it is null. The bytes are
    /// valid only during the call.
    public func withUTF8<T>(_ column: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T? {
        switch source {
        case .statement(let statement):
            let index = Int32(column) + 1
            guard sqlite3_column_type(statement, index) != SQLITE_NULL else { return nil }
            // Text first, then its length: the order SQLite documents for a stable pointer.
            let text = sqlite3_column_text(statement, index)
            let count = Int(sqlite3_column_bytes(statement, index))
            return try body(UnsafeRawBufferPointer(start: text, count: text == nil ? 0 : count))
        case .values(_, let values):
            guard case .string(let text) = values[column] else { return nil }
            return try Array(text.utf8).withUnsafeBytes(body)
        }
    }
}
