/// One row of a column scan (``ObjectContext/scanRows(of:attributes:rowIDs:_:)``), read in place: on SQLite,
/// numbers come straight from the statement and text is lent as UTF-8 bytes, so that a scan of a million rows
/// makes no value and allocates nothing per row; other stores hand the row's values. The core reads a store's
/// statement through that store's ``ScannedRowColumns``, knowing nothing of its database.
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
        /// A store's statement on a row of `SELECT _id, attributes...`, and how to read its columns.
        case statement(OpaquePointer, ScannedRowColumns)
        case values(rowID: Int64, ContiguousArray<AttributeValue>)
    }

    private let source: Source

    package init(statement: OpaquePointer, columns: ScannedRowColumns) {
        source = .statement(statement, columns)
    }

    package init(rowID: Int64, values: ContiguousArray<AttributeValue>) {
        source = .values(rowID: rowID, values)
    }

    /// The row's permanent ID within its entity.
    public var rowID: Int64 {
        switch source {
        case .statement(let statement, let columns): return columns.integer(statement, 0)
        case .values(let rowID, _): return rowID
        }
    }

    /// Whether the attribute at `column` is null.
    public func isNull(_ column: Int) -> Bool {
        switch source {
        case .statement(let statement, let columns): return columns.isNull(statement, Int32(column) + 1)
        case .values(_, let values): return values[column] == .null
        }
    }

    /// The attribute at `column` as a number (a date as seconds since 1970), `nil` when it holds no number (null,
    /// or text or bytes a damaged store may hold).
    public func double(_ column: Int) -> Double? {
        switch source {
        case .statement(let statement, let columns):
            var value = 0.0
            return columns.number(statement, Int32(column) + 1, &value) ? value : nil
        case .values(_, let values):
            return values[column].numericValue
        }
    }

    /// The integer attribute at `column` (a to-one relationship's column: the row id of the object it names), `nil`
    /// when it is null.
    public func integer(_ column: Int) -> Int64? {
        switch source {
        case .statement(let statement, let columns):
            return columns.isNull(statement, Int32(column) + 1) ? nil : columns.integer(statement, Int32(column) + 1)
        case .values(_, let values):
            if case .integer(let value) = values[column] { return value }
            return nil
        }
    }

    /// Calls `body` with the UTF-8 bytes of the text attribute at `column`, `nil` when it is null. The bytes are
    /// valid only during the call.
    public func withUTF8<T>(_ column: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T? {
        switch source {
        case .statement(let statement, let columns):
            var text: UnsafeRawPointer?
            var count = 0
            guard columns.text(statement, Int32(column) + 1, &text, &count) else { return nil }
            return try body(UnsafeRawBufferPointer(start: text, count: count))
        case .values(_, let values):
            guard case .string(let text) = values[column] else { return nil }
            return try Array(text.utf8).withUnsafeBytes(body)
        }
    }
}

/// How a store reads the columns of its statement in place, as plain C functions (no context, no allocation):
/// column 0 is the row id, the attributes follow.
package struct ScannedRowColumns: Sendable {
    /// The integer in a column.
    package let integer: @convention(c) (OpaquePointer?, Int32) -> Int64
    package let isNull: @convention(c) (OpaquePointer?, Int32) -> Bool
    /// Writes the column's number and returns true, or returns false when it holds no number.
    package let number: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<Double>?) -> Bool
    /// Writes the column's UTF-8 bytes (valid until the statement moves on) and their count, and returns true;
    /// returns false when the column is null.
    package let text: @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<UnsafeRawPointer?>?, UnsafeMutablePointer<Int>?) -> Bool

    package init(integer: @escaping @convention(c) (OpaquePointer?, Int32) -> Int64,
                 isNull: @escaping @convention(c) (OpaquePointer?, Int32) -> Bool,
                 number: @escaping @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<Double>?) -> Bool,
                 text: @escaping @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<UnsafeRawPointer?>?,
                                                  UnsafeMutablePointer<Int>?) -> Bool) {
        self.integer = integer
        self.isNull = isNull
        self.number = number
        self.text = text
    }
}
