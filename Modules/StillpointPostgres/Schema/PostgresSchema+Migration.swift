import StillpointCore

/// The in-place changes beyond adding: renames that the schema declares, and the cleanup of what it no longer
/// declares. Both run inside ``PostgresSchema/create(on:path:)``'s transaction, under its lock.
extension PostgresSchema {
    /// Renames the tables and columns of entities and attributes declared with `renamedFrom`, when the store
    /// still has the previous name and not the new one. Folded copies are renamed with their column.
    func applyRenames(on connection: PostgresConnection) throws {
        var tables = try storedTables(on: connection)
        for entity in schema.entities {
            if !tables.contains(entity.name), let previous = entity.renamedFrom, tables.contains(previous) {
                try connection.execute("ALTER TABLE \(dialect.quote(previous)) RENAME TO \(dialect.quote(entity.name))")
                tables.remove(previous)
                tables.insert(entity.name)
            }
            guard tables.contains(entity.name) else { continue }
            let columns = Set(try storedColumnFacts(of: entity.name, on: connection).map(\.name))
            for attribute in entity.attributes {
                guard !columns.contains(attribute.name), let previous = attribute.renamedFrom, columns.contains(previous) else { continue }
                let table = dialect.quote(entity.name)
                try connection.execute("ALTER TABLE \(table) RENAME COLUMN \(dialect.quote(previous)) TO \(dialect.quote(attribute.name))")
                for flags in SQLDialect.foldFlags where columns.contains(SQLDialect.foldedColumnName(previous, flags: flags)) {
                    try connection.execute("ALTER TABLE \(table) RENAME COLUMN "
                        + "\(dialect.quote(SQLDialect.foldedColumnName(previous, flags: flags))) TO "
                        + dialect.quote(SQLDialect.foldedColumnName(attribute.name, flags: flags)))
                }
            }
        }
    }

    /// Loosens what the schema no longer declares: a column of a removed attribute stops being `NOT NULL`
    /// (its values are kept), and an index that Stillpoint named and the schema no longer declares is dropped.
    /// Indexes of other names are the application's and are left alone.
    func removeUndeclaredConstraints(on connection: PostgresConnection) throws {
        for entity in schema.entities {
            let table = dialect.quote(entity.name)
            let declaredColumns = Set(Self.columnNames(of: entity))
            for column in try storedColumnFacts(of: entity.name, on: connection)
            where column.isNotNull && !declaredColumns.contains(column.name) {
                try connection.execute("ALTER TABLE \(table) ALTER COLUMN \(dialect.quote(column.name)) DROP NOT NULL")
            }
            let declaredIndexes = Set(entity.indexes.map { Self.storedIdentifier($0.name(in: entity.name)) })
            let indexes = try connection.execute(
                "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1", [entity.name])
            for row in 0..<indexes.rowCount {
                guard let name = indexes.text(row: row, column: 0), name.hasPrefix("index_") || name.hasPrefix("unique_"),
                      !declaredIndexes.contains(name) else { continue }
                try connection.execute("DROP INDEX \(dialect.quote(name))")
            }
        }
    }

    /// An identifier as PostgreSQL stores it: cut to 63 bytes, on a character boundary.
    static func storedIdentifier(_ name: String) -> String {
        var result = ""
        var length = 0
        for character in name {
            length += character.utf8.count
            guard length <= 63 else { break }
            result.append(character)
        }
        return result
    }

    private func storedTables(on connection: PostgresConnection) throws -> Set<String> {
        let result = try connection.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")
        return Set((0..<result.rowCount).compactMap { result.text(row: $0, column: 0) })
    }

    /// The columns of `table` with whether they are `NOT NULL` without a default (so that inserts must set them).
    private func storedColumnFacts(of table: String, on connection: PostgresConnection) throws -> [(name: String, isNotNull: Bool)] {
        let result = try connection.execute("""
            SELECT column_name, is_nullable = 'NO' AND column_default IS NULL FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = $1
            """, [table])
        return (0..<result.rowCount).compactMap { row in
            guard let name = result.text(row: row, column: 0) else { return nil }
            return (name, result.text(row: row, column: 1) == "t")
        }
    }
}
