/// A query's rows read through a server-side cursor in the current transaction, `FETCH FORWARD` a chunk at a
/// time, so that memory holds one chunk of libpq's result whatever the number of rows (a whole result of a
/// million sessions held about 280 bytes each). Between chunks the connection is free: the body may run
/// statements of its own.
///
/// ```swift
/// try PostgresCursor(connection, name: "stillpoint_scan").forEachChunk("SELECT \"_id\" FROM \"Session\"") { result in
///     for row in 0..<result.rowCount { ids.append(result.integer(row: row, column: 0) ?? 0) }
/// }
/// ```
package struct PostgresCursor {
    let connection: PostgresConnection
    /// The cursor's name, made unique so that a body may open another cursor while this one is open.
    let name: String
    /// Rows per `FETCH` unless the connection says otherwise (``PostgresConnection/rowsPerFetch``): large enough
    /// that the round trips vanish, small enough that a chunk stays small.
    package static let chunk = 2_000

    init(_ connection: PostgresConnection, name: String) {
        self.connection = connection
        self.name = "\(name)_\(UInt64.random(in: 0...UInt64.max))"
    }

    /// Calls `body` with each chunk of the rows of `sql`; must run inside a transaction.
    func forEachChunk(_ sql: String, _ parameters: [String?] = [], _ body: (PostgresResult) throws -> Void) throws {
        try connection.execute("DECLARE \(name) NO SCROLL CURSOR FOR \(sql)", parameters)
        do {
            let rows = max(1, connection.rowsPerFetch)
            while true {
                let result = try connection.execute("FETCH FORWARD \(rows) FROM \(name)")
                try body(result)
                if result.rowCount < rows { break }
            }
        } catch {
            // A caller that catches the error and carries on in the transaction is left no open cursor.
            _ = try? connection.execute("CLOSE \(name)")
            throw error
        }
        try connection.execute("CLOSE \(name)")
    }
}
