import StillpointCore
import StillpointSQL

extension PostgresSchema {
    /// The table that records the store's format version (``PersistentContainer/storeFormatVersion``).
    package static let formatTable = "_stillpoint_store"

    static let createFormatTable = """
        CREATE TABLE IF NOT EXISTS \(formatTable) (id integer PRIMARY KEY CHECK (id = 1), format integer NOT NULL);
        INSERT INTO \(formatTable) (id, format) VALUES (1, \(PersistentContainer.storeFormatVersion)) ON CONFLICT (id) DO NOTHING
        """

    /// Marks a store of an older format as of this one, once the open brought it up to date.
    static let markFormat = "UPDATE \(formatTable) SET format = \(PersistentContainer.storeFormatVersion) WHERE format < \(PersistentContainer.storeFormatVersion)"

    /// The store's format version, or 0 when the database holds no store.
    package static func formatVersion(on connection: PostgresConnection) throws -> Int {
        let exists = try connection.execute("SELECT to_regclass($1) IS NOT NULL", [formatTable])
        guard exists.text(row: 0, column: 0) == "t" else { return 0 }
        return Int(try connection.execute("SELECT format FROM \(formatTable)").integer(row: 0, column: 0) ?? 0)
    }

    /// Refuses a store written by a newer Stillpoint before anything is changed in it.
    static func checkFormat(on connection: PostgresConnection, path: String) throws {
        let version = try formatVersion(on: connection)
        let supported = PersistentContainer.storeFormatVersion
        guard version <= supported else {
            throw StoreError.newerVersion(path: path, version: version, supported: supported)
        }
    }

    /// Checks, writing nothing, that the database holds the store's tables with every column the schema needs.
    package func checkReadable(on connection: PostgresConnection, path: String) throws {
        try Self.checkFormat(on: connection, path: path)
        let columns = try storedColumns(on: connection)
        guard columns[PostgresChangeLog.table] != nil else { throw StoreError.noStore(path: path) }
        if let latest = schema.latestVersion {
            let recorded = try Self.recordedVersion(on: connection) ?? 0
            if recorded > latest { throw StoreError.newerSchemaVersion(path: path, version: recorded, latest: latest) }
            if recorded < latest { throw StoreError.needsUpgrade(path: path) }
        }
        guard try missingParts(on: connection).isEmpty else { throw StoreError.needsUpgrade(path: path) }
    }

    /// What the database lacks of the store's tables and columns, one line each: `[]` when nothing is missing.
    package func missingParts(on connection: PostgresConnection) throws -> [String] {
        let stored = try storedColumns(on: connection)
        var missing: [String] = []
        for table in [PostgresChangeLog.table, Self.purgeTable, Self.formatTable] where stored[table] == nil {
            missing.append("the table \(table) is missing")
        }
        for entity in schema.entities {
            guard let columns = stored[entity.name] else {
                missing.append("the table \(entity.name) is missing")
                continue
            }
            for column in Self.columnNames(of: entity) where columns[column] == nil {
                missing.append("the column \(column) of \(entity.name) is missing")
            }
            for attribute in entity.storedAttributes {
                if let type = columns[attribute.name], type != Self.storedTypeName(attribute.type) {
                    missing.append("the column \(attribute.name) of \(entity.name) is of type \(type), not yet converted")
                }
            }
        }
        return missing
    }

    /// Whether the database holds every table, column and index of the store: then an open changes nothing.
    func isComplete(on connection: PostgresConnection) throws -> Bool {
        guard try missingParts(on: connection).isEmpty else { return false }
        let result = try connection.execute("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()")
        let stored = Set((0..<result.rowCount).compactMap { result.text(row: $0, column: 0) })
        let wanted = [PostgresChangeLog.transactionIndex] + schema.entities.flatMap { entity in
            entity.indexes.map { Self.indexName($0, of: entity) }
        }
        // PostgreSQL keeps the first 63 bytes of a longer name.
        guard wanted.allSatisfy({ stored.contains(Self.storedIdentifier($0)) }) else { return false }
        let keys = try connection.execute(
            "SELECT conname FROM pg_constraint WHERE contype = 'f' AND connamespace = current_schema()::regnamespace")
        let storedKeys = Set((0..<keys.rowCount).compactMap { keys.text(row: $0, column: 0) })
        return schema.entities.allSatisfy { entity in
            entity.storedAttributes.allSatisfy { $0.references == nil || storedKeys.contains(Self.foreignKeyName(entity, $0)) }
        }
    }

    /// `unique_Item_uid`, `index_Thing_name`: the name of an entity's index.
    static func indexName(_ index: IndexDescription, of entity: EntityDescription) -> String {
        index.name(in: entity.name)
    }

    /// Refuses, as SQLite's store does, tables that cannot be upgraded in place: not made by Stillpoint, a column
    /// of another type than its attribute's with no conversion from it (reading it would give wrong values), or a
    /// new required attribute with no default for the rows already there.
    func checkExistingTables(on connection: PostgresConnection, path: String) throws {
        let stored = try storedColumns(on: connection)
        for entity in schema.entities {
            guard let columns = stored[entity.name] else { continue }
            func incompatible(_ reason: String) -> StoreError {
                .incompatibleSchema(path: path, entity: entity.name, reason: reason)
            }
            guard columns["_id"] != nil, columns["_version"] != nil else {
                throw incompatible("the table exists but was not made by Stillpoint (no _id and _version columns)")
            }
            for attribute in entity.storedAttributes {
                guard let type = columns[attribute.name] else {
                    if !attribute.isOptional, attribute.defaultValue == nil {
                        throw incompatible("the new attribute '\(attribute.name)' is required and has no default value for the existing rows")
                    }
                    continue
                }
                let expected = Self.storedTypeName(attribute.type)
                if type != expected, attribute.conversion.map({ Self.storedTypeName($0.sourceType) }) != type {
                    throw incompatible("the attribute '\(attribute.name)' is stored as \(type), the schema declares it \(attribute.type.rawValue); "
                        + "declare a conversion from the stored type to convert the values")
                }
            }
        }
    }

    /// The columns of every table in the connection's schema, with their types as `information_schema` names them.
    func storedColumns(on connection: PostgresConnection) throws -> [String: [String: String]] {
        let result = try connection.execute(
            "SELECT table_name, column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema()")
        var tables: [String: [String: String]] = [:]
        for row in 0..<result.rowCount {
            guard let table = result.text(row: row, column: 0), let column = result.text(row: row, column: 1) else { continue }
            tables[table, default: [:]][column] = result.text(row: row, column: 2) ?? ""
        }
        return tables
    }

    /// `_id`, `_version`, the attributes and their folded copies.
    static func columnNames(of entity: EntityDescription) -> [String] {
        ["_id", "_version"] + entity.storedAttributes.flatMap { attribute in
            [attribute.name] + (hasFoldedCopies(attribute.type)
                ? SQLDialect.foldFlags.map { SQLDialect.foldedColumnName(attribute.name, flags: $0) } : [])
        }
    }

    /// ``columnType(_:)`` as `information_schema.columns.data_type` spells it (without the collation).
    static func storedTypeName(_ type: AttributeType) -> String {
        columnType(type).replacingOccurrences(of: " COLLATE \"C\"", with: "")
    }
}
