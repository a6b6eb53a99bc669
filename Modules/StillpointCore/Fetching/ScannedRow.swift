import GRDBSQLite

/// One row of a column scan (``ObjectContext/scanRows(of:attributes:rowIDs:_:)``), read in place: numbers come
/// straight from the store and text is lent as UTF-8 bytes, so that a scan of a million rows makes no value
/// and allocates nothing per row.
///
/// Valid only inside the scan's body; columns are numbered in the order the scan named its attributes.
///
/// ```swift
/// try context.scanRows(of: Session.entity, attributes: ["start", "duration"]) { row in
///     total += row.double(1) ?? 0
/// }
/// ```
public struct ScannedRow: ~Copyable {
    private let statement: OpaquePointer

    init(statement: OpaquePointer) {
        self.statement = statement
    }

    /// The row's permanent ID within its entity.
    public var rowID: Int64 {
        sqlite3_column_int64(statement, 0)
    }

    /// Whether the attribute at `column` is null.
    public func isNull(_ column: Int) -> Bool {
        sqlite3_column_type(statement, Int32(column) + 1) == SQLITE_NULL
    }

    /// The attribute at `column` as a number (a date as seconds since 1970), `nil` when it holds no number (null,
    /// or text or bytes a damaged store may hold).
    public func double(_ column: Int) -> Double? {
        let index = Int32(column) + 1
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER, SQLITE_FLOAT: return sqlite3_column_double(statement, index)
        default: return nil
        }
    }

    /// Calls `body` with the UTF-8 bytes of the text attribute at `column`, `nil` when it is null. The bytes are
    /// valid only during the call.
    public func withUTF8<T>(_ column: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T? {
        let index = Int32(column) + 1
        guard sqlite3_column_type(statement, index) != SQLITE_NULL else { return nil }
        // Text first, then its length: the order SQLite documents for a stable pointer.
        let text = sqlite3_column_text(statement, index)
        let count = Int(sqlite3_column_bytes(statement, index))
        return try body(UnsafeRawBufferPointer(start: text, count: text == nil ? 0 : count))
    }
}
