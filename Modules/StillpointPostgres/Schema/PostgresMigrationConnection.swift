import StillpointCore
import StillpointSQL

/// The PostgreSQL store's side of a ``MigrationContext``: the connection inside the open's transaction. Updates of
/// text attributes set their folded copies too, as saves do.
struct PostgresMigrationConnection: MigrationConnection {
    let connection: PostgresConnection
    let schema: Schema
    private let dialect = SQLDialect.postgreSQL

    init(connection: PostgresConnection, schema: Schema) {
        self.connection = connection
        self.schema = schema
    }

    func rows(of table: String, columns: [String]) throws -> [MigrationRow] {
        let entity = try? schema.entity(named: table)
        let selected = (["_id"] + columns).map(dialect.quote).joined(separator: ", ")
        let result = try connection.execute("SELECT \(selected) FROM \(dialect.quote(table)) ORDER BY \"_id\"")
        return (0..<result.rowCount).map { row in
            var values: [String: AttributeValue] = [:]
            for (position, column) in columns.enumerated() {
                values[column] = PostgresValueText.value(result.text(row: row, column: position + 1), as: entity?.attribute(named: column)?.type)
            }
            return MigrationRow(id: result.integer(row: row, column: 0) ?? 0, values: values)
        }
    }

    func update(_ table: String, id: Int64, values: [String: AttributeValue]) throws {
        let entity = try? schema.entity(named: table)
        var assignments: [(column: String, text: String?)] = []
        for (column, value) in values.sorted(by: { $0.key < $1.key }) {
            assignments.append((column, PostgresValueText.text(value)))
            if let type = entity?.attribute(named: column)?.type, PostgresSchema.hasFoldedCopies(type) {
                for flags in SQLDialect.foldFlags {
                    assignments.append((SQLDialect.foldedColumnName(column, flags: flags), PostgresValueText.text(dialect.foldedValue(value, flags: flags))))
                }
            }
        }
        let set = assignments.enumerated().map { "\(dialect.quote($1.column)) = $\($0 + 2)" }.joined(separator: ", ")
        try connection.execute("UPDATE \(dialect.quote(table)) SET \(set) WHERE \"_id\" = $1", [String(id)] + assignments.map(\.text))
    }

    func execute(_ sql: String) throws {
        try connection.execute(sql)
    }

    func columns(of table: String) throws -> Set<String> {
        let result = try connection.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1", [table])
        return Set((0..<result.rowCount).compactMap { result.text(row: $0, column: 0) })
    }
}
