import StillpointCore
import StillpointSQL

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
            for attribute in entity.storedAttributes {
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

    /// Converts the columns of attributes whose type changed and that declare a conversion from the stored type:
    /// every value is converted in Swift first (a failure names the row and changes nothing), then the column
    /// takes its new type and the converted values, and its constraints and folded copies are set again.
    func applyConversions(on connection: PostgresConnection, path: String) throws {
        let stored = try storedColumns(on: connection)
        for entity in schema.entities {
            guard let columns = stored[entity.name] else { continue }
            let table = dialect.quote(entity.name)
            for attribute in entity.storedAttributes {
                guard let conversion = attribute.conversion, let type = columns[attribute.name],
                      type != Self.storedTypeName(attribute.type), type == Self.storedTypeName(conversion.sourceType) else { continue }
                let column = dialect.quote(attribute.name)
                let rows = try connection.execute("SELECT \"_id\", \(column) FROM \(table)")
                var converted: [(id: String, value: AttributeValue)] = []
                for row in 0..<rows.rowCount {
                    let id = rows.text(row: row, column: 0) ?? ""
                    do {
                        let value = PostgresValueText.value(rows.text(row: row, column: 1), as: conversion.sourceType)
                        converted.append((id, try conversion.convert(value)))
                    } catch {
                        throw StoreError.incompatibleSchema(path: path, entity: entity.name, reason: AttributeConversion.failureReason(
                            attribute: attribute.name, id: Int64(id) ?? 0, error: error))
                    }
                }
                try connection.execute("ALTER TABLE \(table) ALTER COLUMN \(column) DROP DEFAULT, ALTER COLUMN \(column) DROP NOT NULL, "
                    + "ALTER COLUMN \(column) TYPE \(Self.columnType(attribute.type)) USING NULL")
                let folded = Self.hasFoldedCopies(attribute.type) ? SQLDialect.foldFlags : []
                let assignments = ([column] + folded.map { dialect.quote(SQLDialect.foldedColumnName(attribute.name, flags: $0)) })
                    .enumerated().map { "\($1) = $\($0 + 2)" }.joined(separator: ", ")
                for (id, value) in converted {
                    let texts = [PostgresValueText.text(value)] + folded.map { PostgresValueText.text(dialect.foldedValue(value, flags: $0)) }
                    try connection.execute("UPDATE \(table) SET \(assignments) WHERE \"_id\" = $1", [id] + texts)
                }
                if let defaultText = PostgresValueText.text(attribute.defaultValue ?? .null) {
                    try connection.execute("ALTER TABLE \(table) ALTER COLUMN \(column) SET DEFAULT \(Self.literal(defaultText))")
                }
                if !attribute.isOptional {
                    try connection.execute("ALTER TABLE \(table) ALTER COLUMN \(column) SET NOT NULL")
                }
            }
        }
    }

    /// The version the store records, or `nil` when it records none.
    static func recordedVersion(on connection: PostgresConnection) throws -> Int? {
        let exists = try connection.execute("SELECT to_regclass($1) IS NOT NULL", [Schema.versionTable])
        guard exists.text(row: 0, column: 0) == "t" else { return nil }
        let result = try connection.execute("SELECT version FROM \(Schema.versionTable) WHERE id = 1")
        return result.rowCount == 0 ? nil : result.integer(row: 0, column: 0).map(Int.init)
    }

    /// The schema versions whose steps the store has not run, or `nil` when the schema declares no versions or
    /// the store is at the latest; throws for a store of a newer version. Called before anything is changed.
    func versionSteps(on connection: PostgresConnection, path: String) throws -> [SchemaVersion]? {
        guard let latest = schema.latestVersion else { return nil }
        let recorded = try Self.recordedVersion(on: connection)
        guard recorded != latest else {
            return nil
        }
        // A store made before it recorded versions is at version 0; one made by this open runs no step.
        let tables = try storedTables(on: connection)
        let existed = schema.entities.contains { tables.contains($0.name) || $0.renamedFrom.map(tables.contains) == true }
        return try schema.stepsToRun(from: recorded ?? (existed ? 0 : nil), path: path)
    }

    /// Runs the steps, in the open's transaction after the tables were brought to the schema, and records the
    /// latest version.
    func run(_ steps: [SchemaVersion], on connection: PostgresConnection) throws {
        guard let latest = schema.latestVersion else { return }
        let context = MigrationContext(PostgresMigrationConnection(connection: connection, schema: schema))
        for version in steps { try version.step?(context) }
        try connection.execute("""
            CREATE TABLE IF NOT EXISTS \(Schema.versionTable) (id integer PRIMARY KEY CHECK (id = 1), version bigint NOT NULL);
            INSERT INTO \(Schema.versionTable) (id, version) VALUES (1, \(latest)) ON CONFLICT (id) DO UPDATE SET version = excluded.version
            """)
    }
}
