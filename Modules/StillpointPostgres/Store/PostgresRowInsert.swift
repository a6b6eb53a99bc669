import StillpointCore
import StillpointSQL

/// The `INSERT` of rows of one entity, with the folded copies of its text columns, returning the new rows' ids.
///
/// ```swift
/// let ids = try PostgresRowInsert(entity).insert([[.string("Zazen"), .integer(600)]], on: connection)
/// ```
package struct PostgresRowInsert {
    package let entity: EntityDescription
    private let dialect = SQLDialect.postgreSQL

    package init(_ entity: EntityDescription) {
        self.entity = entity
    }

    /// The columns written, attributes first, then each text attribute's folded copies.
    package var columns: [String] {
        entity.storedAttributes.map(\.name) + entity.storedAttributes.filter { PostgresSchema.hasFoldedCopies($0.type) }.flatMap { attribute in
            SQLDialect.foldFlags.map { SQLDialect.foldedColumnName(attribute.name, flags: $0) }
        }
    }

    /// The parameters of one row: its values (in attribute order), then their folded copies. Text with a NUL
    /// character cannot be sent: it throws, naming the attribute.
    package func parameters(_ values: ContiguousArray<AttributeValue>) throws(PostgresNULTextError) -> [String?] {
        try PostgresNULTextError.check(values, of: entity.storedAttributes, entity: entity.name)
        return fields(values)
    }

    /// ``parameters(_:)`` of values already checked for NUL characters, after the row's id when there is one (a
    /// `COPY` row), in one array made at its size: an import makes one per row.
    package func fields(_ values: ContiguousArray<AttributeValue>, id: Int64? = nil) -> [String?] {
        var fields: [String?] = []
        fields.reserveCapacity(1 + values.count * (1 + SQLDialect.foldFlags.count))
        if let id { fields.append(String(id)) }
        for value in values { fields.append(PostgresValueText.text(value)) }
        for (attribute, value) in zip(entity.storedAttributes, values) where PostgresSchema.hasFoldedCopies(attribute.type) {
            if case .string(let text) = value, TextFolding.foldsToItself(text) {
                for _ in SQLDialect.foldFlags { fields.append(text) }
                continue
            }
            for flags in SQLDialect.foldFlags {
                fields.append(PostgresValueText.text(dialect.foldedValue(value, flags: flags)))
            }
        }
        return fields
    }

    /// Inserts `rows` (values in attribute order) in one statement per 1,000 rows and returns their ids, in order.
    @discardableResult
    package func insert(_ rows: [ContiguousArray<AttributeValue>], on connection: PostgresConnection) throws -> [Int64] {
        let columns = self.columns
        let columnList = columns.map(dialect.quote).joined(separator: ", ")
        var ids: [Int64] = []
        ids.reserveCapacity(rows.count)
        guard !columns.isEmpty else {
            for _ in rows {
                let result = try connection.execute("INSERT INTO \(dialect.quote(entity.name)) DEFAULT VALUES RETURNING \"_id\"")
                ids += result.integer(row: 0, column: 0).map { [$0] } ?? []
            }
            return ids
        }
        // At most 65,535 parameters per statement.
        let perStatement = max(1, min(1_000, 65_535 / max(1, columns.count)))
        for start in stride(from: 0, to: rows.count, by: perStatement) {
            let chunk = rows[start..<min(start + perStatement, rows.count)]
            var parameters: [String?] = []
            var tuples: [String] = []
            for row in chunk {
                tuples.append("(" + dialect.parameters(columns.count, from: parameters.count + 1) + ")")
                parameters += try self.parameters(row)
            }
            // The serial is drawn row by row in the order of the VALUES list: sorted, the ids are the rows' in order.
            let sql = "INSERT INTO \(dialect.quote(entity.name)) (\(columnList)) VALUES \(tuples.joined(separator: ", ")) RETURNING \"_id\""
            let result = try connection.execute(sql, parameters)
            ids += (0..<result.rowCount).compactMap { result.integer(row: $0, column: 0) }.sorted()
        }
        return ids
    }

    /// Inserts one row and returns its id, or `nil`, inserting nothing, when a unique key of it is taken.
    package func insertUnlessTaken(_ values: ContiguousArray<AttributeValue>, on connection: PostgresConnection) throws -> Int64? {
        let columns = self.columns
        let table = dialect.quote(entity.name)
        let sql = columns.isEmpty
            ? "INSERT INTO \(table) DEFAULT VALUES RETURNING \"_id\""
            : "INSERT INTO \(table) (\(columns.map(dialect.quote).joined(separator: ", "))) VALUES (\(dialect.parameters(columns.count))) "
                + "ON CONFLICT DO NOTHING RETURNING \"_id\""
        return try connection.execute(sql, columns.isEmpty ? [] : try parameters(values)).integer(row: 0, column: 0)
    }
}
