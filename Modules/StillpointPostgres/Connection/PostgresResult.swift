import CLibPQ

/// The rows a statement returned, as text, read straight from libpq's result and freed with it.
///
/// ```swift
/// let result = try connection.execute("SELECT id, kind FROM session WHERE duration > $1", ["600"])
/// for row in 0..<result.rowCount { print(result.text(row: row, column: 1) ?? "null") }
/// ```
package final class PostgresResult {
    /// libpq's result; a scan reads it in place (``forEachScannedRow(types:_:)``).
    let handle: OpaquePointer

    init(_ handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        PQclear(handle)
    }

    package var rowCount: Int { Int(PQntuples(handle)) }
    package var columnCount: Int { Int(PQnfields(handle)) }

    /// The rows an `INSERT`, `UPDATE` or `DELETE` changed, or a `SELECT` returned.
    package var affectedRows: Int { PQcmdTuples(handle).flatMap { Int(String(cString: $0)) } ?? 0 }

    package func columnName(_ column: Int) -> String {
        PQfname(handle, Int32(column)).map { String(cString: $0) } ?? ""
    }

    /// The value as text, or `nil` for SQL `NULL`.
    package func text(row: Int, column: Int) -> String? {
        guard PQgetisnull(handle, Int32(row), Int32(column)) == 0, let value = PQgetvalue(handle, Int32(row), Int32(column))
        else { return nil }
        return String(cString: value)
    }

    /// Whether the value is SQL `NULL`.
    package func isNull(row: Int, column: Int) -> Bool {
        PQgetisnull(handle, Int32(row), Int32(column)) != 0
    }

    /// The value's text as libpq holds it, NUL-terminated, valid while the result lives; `nil` for SQL `NULL`.
    package func cString(row: Int, column: Int) -> UnsafePointer<CChar>? {
        guard PQgetisnull(handle, Int32(row), Int32(column)) == 0 else { return nil }
        return UnsafePointer(PQgetvalue(handle, Int32(row), Int32(column)))
    }

    /// The value's text as UTF-8 bytes borrowed from libpq's result, with no `String` made; `nil` for SQL `NULL`.
    package func bytes(row: Int, column: Int) -> UnsafeBufferPointer<UInt8>? {
        guard let value = cString(row: row, column: column) else { return nil }
        let count = Int(PQgetlength(handle, Int32(row), Int32(column)))
        // CChar and UInt8 may alias each other: the bytes are read as they are.
        return UnsafeBufferPointer(start: UnsafeRawPointer(value).assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// The value as a 64-bit integer, or `nil` for `NULL` or text that is not one.
    package func integer(row: Int, column: Int) -> Int64? {
        text(row: row, column: column).flatMap { Int64($0) }
    }

    /// The value as a double, or `nil` for `NULL` or text that is not one.
    package func double(row: Int, column: Int) -> Double? {
        text(row: row, column: column).flatMap { Double($0) }
    }
}
