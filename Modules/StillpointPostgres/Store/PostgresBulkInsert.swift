import StillpointCore
import StillpointSQL

/// New rows of one entity in bulk, as one `INSERT` per row would write them: ids drawn from the table's sequence
/// up front, ascending in the rows' order, then a few rows in one `INSERT ... VALUES ... ON CONFLICT DO NOTHING
/// RETURNING "_id"`, and many with `COPY` (text format): straight into the table (under a savepoint when a unique
/// index could refuse a row), and when a key was taken, into a temporary table and on with one `INSERT ... SELECT
/// ... ORDER BY "_id" ON CONFLICT DO NOTHING RETURNING "_id"`. Either way the rows go in in their order, so that a row whose key is taken (by a
/// stored row or an earlier row) is left out, as it would be alone.
///
/// ```swift
/// let ids = try PostgresBulkInsert(entity, on: connection).insert(rows)   // nil where a key was taken
/// ```
struct PostgresBulkInsert {
    let entity: EntityDescription
    let connection: PostgresConnection
    private let dialect = SQLDialect.postgreSQL
    /// The temporary table rows go through; dropped once they are in, and at the latest with the transaction.
    static let stagingTable = "stillpoint_import_rows"

    init(_ entity: EntityDescription, on connection: PostgresConnection) {
        self.entity = entity
        self.connection = connection
    }

    /// Below this many rows, one `INSERT ... VALUES` (two round trips in all) beats `COPY` through a table (five).
    static let copyThreshold = 100

    /// Inserts `rows` (values in attribute order) and returns each one's id, or `nil` where a unique key was taken.
    func insert(_ rows: [ContiguousArray<AttributeValue>]) throws -> [Int64?] {
        guard !rows.isEmpty else { return [] }
        let insert = PostgresRowInsert(entity)
        let columns = insert.columns
        // Nothing to copy for an entity without attributes.
        guard !columns.isEmpty else { return try rows.map { try insert.insertUnlessTaken($0, on: connection) } }
        // Checked before anything is sent: the error names the attribute.
        for row in rows { try PostgresNULTextError.check(row, of: entity.storedAttributes, entity: entity.name) }
        let ids = try drawIDs(rows.count)
        // Each row's fields after its id, as the statements below take them.
        let copied = zip(ids, rows).map { insert.fields($1, id: $0) }
        let columnList = (["_id"] + columns).map(dialect.quote).joined(separator: ", ")
        let table = dialect.quote(entity.name)
        if rows.count < Self.copyThreshold, rows.count * (columns.count + 1) <= 65_535 {
            // The VALUES list is read in order: of two rows with the same key the first goes in.
            let tuples = (0..<rows.count).map { "(" + dialect.parameters(columns.count + 1, from: $0 * (columns.count + 1) + 1) + ")" }
            let result = try connection.execute("INSERT INTO \(table) (\(columnList)) VALUES \(tuples.joined(separator: ", ")) "
                                                + "ON CONFLICT DO NOTHING RETURNING \"_id\"",
                                                copied.flatMap { $0 })
            return Self.written(ids, result)
        }

        guard !entity.uniquenessConstraints.isEmpty else {
            // Only the primary key is unique, and the ids are fresh from its sequence: nothing can refuse a row.
            try connection.copy("COPY \(table) (\(columnList)) FROM STDIN", rows: copied)
            return ids
        }
        // Keys are mostly new (an import has looked up the ones it had): straight into the table, under a savepoint
        // that a taken key rolls back, to go through the staging table instead.
        if try copyUnlessAKeyIsTaken("COPY \(table) (\(columnList)) FROM STDIN", rows: copied) { return ids }
        let staging = dialect.quote(Self.stagingTable)
        let types = ["bigint"] + entity.storedAttributes.map { PostgresSchema.columnType($0.type) }
            + Array(repeating: "text COLLATE \"C\"", count: columns.count - entity.storedAttributes.count)
        let definitions = zip(["_id"] + columns, types).map { "\(dialect.quote($0)) \($1)" }.joined(separator: ", ")
        try connection.execute("DROP TABLE IF EXISTS pg_temp.\(staging); CREATE TEMPORARY TABLE \(staging) (\(definitions)) ON COMMIT DROP")
        try connection.copy("COPY \(staging) (\(columnList)) FROM STDIN", rows: copied)
        // In the rows' order, so that of two rows with the same key the first goes in, as row by row.
        let result = try connection.execute("INSERT INTO \(table) (\(columnList)) SELECT \(columnList) FROM \(staging) "
                                            + "ORDER BY \"_id\" ON CONFLICT DO NOTHING RETURNING \"_id\"")
        try connection.execute("DROP TABLE \(staging)")
        return Self.written(ids, result)
    }

    /// Runs a `COPY` under a savepoint: false, with nothing written, when a unique key was taken.
    private func copyUnlessAKeyIsTaken(_ sql: String, rows: some Sequence<[String?]>) throws -> Bool {
        try connection.execute("SAVEPOINT stillpoint_bulk_copy")
        do {
            try connection.copy(sql, rows: rows)
        } catch {
            guard error.isUniqueViolation else { throw error }
            try connection.execute("ROLLBACK TO SAVEPOINT stillpoint_bulk_copy")
            return false
        }
        try connection.execute("RELEASE SAVEPOINT stillpoint_bulk_copy")
        return true
    }

    /// Each of `ids` that came back in `result`, `nil` for the others.
    private static func written(_ ids: [Int64], _ result: PostgresResult) -> [Int64?] {
        let written = Set((0..<result.rowCount).compactMap { result.integer(row: $0, column: 0) })
        return ids.map { written.contains($0) ? $0 : nil }
    }

    /// `count` new ids from the table's sequence, ascending.
    private func drawIDs(_ count: Int) throws -> [Int64] {
        // The sequence is looked up once (OFFSET 0 keeps the planner from folding the look-up into each row's
        // nextval): looked up per row, it cost the server 2 ms of every batch of 1,000.
        let result = try connection.execute("SELECT nextval(sequence.id) FROM (SELECT pg_get_serial_sequence($1, '_id')::regclass AS id "
                                            + "OFFSET 0) AS sequence, generate_series(1, $2::integer)",
                                            [dialect.quote(entity.name), String(count)])
        let ids = (0..<result.rowCount).compactMap { result.integer(row: $0, column: 0) }.sorted()
        guard ids.count == count else {
            throw PostgresError(message: "drew \(ids.count) ids for \(count) new rows of \(entity.name)", target: connection.target.description)
        }
        return ids
    }
}
