import GRDB
import StillpointCore

/// The SQLite store's side of a ``MigrationContext``: the open's write transaction.
struct SQLiteMigrationConnection: MigrationConnection {
    let db: Database
    let schema: Schema

    func rows(of table: String, columns: [String]) throws -> [MigrationRow] {
        let entity = try? schema.entity(named: table)
        let selected = (["_id"] + columns).map(Store.quote).joined(separator: ", ")
        return try Row.fetchAll(db, sql: "SELECT \(selected) FROM \(Store.quote(table)) ORDER BY \"_id\"").map { row in
            var values: [String: AttributeValue] = [:]
            for (position, column) in columns.enumerated() {
                values[column] = ConversionFunction.value(row[position + 1], as: entity?.attribute(named: column)?.type)
            }
            return MigrationRow(id: Int64.fromDatabaseValue(row[0]) ?? 0, values: values)
        }
    }

    func update(_ table: String, id: Int64, values: [String: AttributeValue]) throws {
        let ordered = values.sorted { $0.key < $1.key }
        let assignments = ordered.map { "\(Store.quote($0.key)) = ?" }.joined(separator: ", ")
        let arguments = StatementArguments(ordered.map { ConversionFunction.databaseValue($0.value) } + [id.databaseValue])
        try db.execute(sql: "UPDATE \(Store.quote(table)) SET \(assignments) WHERE \"_id\" = ?", arguments: arguments)
    }

    func execute(_ sql: String) throws {
        try db.execute(sql: sql)
    }

    func columns(of table: String) throws -> Set<String> {
        Set(try Row.fetchAll(db, sql: "PRAGMA table_info(\(Store.quote(table)))").compactMap { String.fromDatabaseValue($0["name"]) })
    }
}
