import StillpointCore
import StillpointSQL

/// An export's rows read through a ``PostgresCursor`` in the read transaction, so that memory holds one chunk
/// whatever the number of rows. Between chunks the connection is free, so a format may run statements of its own.
///
/// ```swift
/// try PostgresExportCursor(connection).export(request, columns: ["uid", "name"], types: [.integer, .string], to: &rows)
/// ```
struct PostgresExportCursor {
    let connection: PostgresConnection

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
        try PostgresCursor(connection, name: "stillpoint_export").forEachChunk(query.sql, query.arguments.map(PostgresValueText.text)) { result in
            for row in 0..<result.rowCount {
                try rows.append(PostgresExportRow(result: result, row: row, types: types))
            }
        }
    }
}
