import StillpointCore

/// An export's rows read through a server-side cursor in the read transaction, `FETCH FORWARD` a chunk at a time,
/// so that memory holds one chunk whatever the number of rows. Between chunks the connection is free, so a format
/// may run statements of its own.
///
/// ```swift
/// try PostgresExportCursor(connection).export(request, columns: ["uid", "name"], types: [.integer, .string], to: &rows)
/// ```
struct PostgresExportCursor {
    let connection: PostgresConnection
    /// Rows per `FETCH`: large enough that the round trips vanish, small enough that a chunk stays small.
    static let chunk = 2_000

    init(_ connection: PostgresConnection) {
        self.connection = connection
    }

    /// Streams the rows `request` selects (its order, limit and offset) into `rows`; must run inside a transaction.
    func export(_ request: FetchRequest, columns: [String], types: ContiguousArray<AttributeType>,
                to rows: inout ExportRowWriter) throws {
        let dialect = SQLDialect.postgreSQL
        let query = try dialect.select(request, columns: columns.map(dialect.quote).joined(separator: ", "),
                                       limit: request.limit, offset: request.offset)
        // Shortest exact text for doubles whatever the server's setting, so that they read back bit for bit.
        try connection.execute("SET LOCAL extra_float_digits = 3")
        // A name of its own, should a format export again from inside a row.
        let cursor = "stillpoint_export_\(UInt64.random(in: 0...UInt64.max))"
        try connection.execute("DECLARE \(cursor) NO SCROLL CURSOR FOR \(query.sql)", query.arguments.map(PostgresValueText.text))
        do {
            while true {
                let result = try connection.execute("FETCH FORWARD \(Self.chunk) FROM \(cursor)")
                for row in 0..<result.rowCount {
                    try rows.append(PostgresExportRow(result: result, row: row, types: types))
                }
                if result.rowCount < Self.chunk { break }
            }
        } catch {
            // A caller that catches the error and carries on in the transaction is left no open cursor.
            _ = try? connection.execute("CLOSE \(cursor)")
            throw error
        }
        try connection.execute("CLOSE \(cursor)")
    }
}
