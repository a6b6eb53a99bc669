import Foundation
import GRDB
import StillpointCore

/// Creates the schema's tables, and upgrades existing ones in place: renamed entities and attributes, new
/// entities, new attributes that are optional or have a default, new indexes; attributes removed from the schema
/// stop constraining inserts (their columns become nullable, their values are kept), and indexes that Stillpoint
/// made and the schema no longer declares are dropped. Anything else is an ``StoreError/incompatibleSchema``.
struct SchemaMigrator {
    let schema: Schema
    let path: String

    /// One statement of a plan, and whether reading the store needs it (``isCleanup`` statements only loosen what
    /// the schema no longer declares: a reader does without them).
    struct Statement {
        var entity: String
        var sql: String
        var isCleanup = false
        /// The SQL functions the statement calls to convert values, registered while it runs.
        var conversions: [ConversionFunction] = []
        /// The schema versions whose steps run before the statement (which records the latest version).
        var steps: [SchemaVersion] = []
        /// Around a rebuild: the application's indexes are read just before the table is dropped (their SQL then
        /// names the table and columns as they are after any rename), and made again after.
        var userIndexes: UserIndexes = .none

        enum UserIndexes { case none, save, restore }
    }

    /// A column as `PRAGMA table_info` describes it.
    private struct Column {
        var name: String
        var type: String
        var isNotNull: Bool
        var defaultSQL: String?
    }

    /// The statements that bring the store to the schema, or an error when that cannot be done in place.
    /// Empty when the store is up to date, so that a read-only open can tell whether it may read the store.
    func plan(_ db: Database) throws -> [Statement] {
        // First: a store of a newer schema version is refused before anything else is planned.
        let versioning = try versionStatement(db)
        var statements: [Statement] = []
        if try !db.tableExists(ChangeLog.table) || !db.tableExists(ChangeLog.purgeTable) {
            statements.append(Statement(entity: "", sql: ChangeLog.createTable))
        }
        if try !db.tableExists(OpenWriters.table) {
            statements.append(Statement(entity: "", sql: OpenWriters.createTable))
        }
        // New tables first: rebuilding an existing table renames it, which SQLite refuses while a foreign key of
        // it names a table that does not exist yet.
        var existing: [EntityDescription] = []
        for entity in schema.entities {
            if try db.tableExists(entity.name) || (try entity.renamedFrom.map { try db.tableExists($0) } ?? false) {
                existing.append(entity)
            } else {
                statements += try plan(for: entity, db)
            }
        }
        for entity in existing {
            statements += try plan(for: entity, db)
        }
        if let versioning { statements.append(versioning) }
        return statements
    }

    /// The steps of the schema versions the store has not run yet, and the statement that records the latest;
    /// `nil` when the schema declares no versions or the store is at the latest.
    private func versionStatement(_ db: Database) throws -> Statement? {
        guard let latest = schema.latestVersion else { return nil }
        let table = Store.quote(Schema.versionTable)
        let recorded = try db.tableExists(Schema.versionTable)
            ? Int.fromDatabaseValue(try DatabaseValue.fetchOne(db, sql: "SELECT version FROM \(table) WHERE id = 1") ?? .null) : nil
        guard recorded != latest else { return nil }
        // A store made before it recorded versions is at version 0; one made by this open runs no step.
        let existed = try schema.entities.contains { entity in
            try db.tableExists(entity.name) || (try entity.renamedFrom.map { try db.tableExists($0) } ?? false)
        }
        var statement = Statement(entity: "", sql: """
            CREATE TABLE IF NOT EXISTS \(table) (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL);
            INSERT INTO \(table) (id, version) VALUES (1, \(latest)) ON CONFLICT (id) DO UPDATE SET version = excluded.version
            """)
        statement.steps = try schema.stepsToRun(from: recorded ?? (existed ? 0 : nil), path: path)
        return statement
    }

    private func plan(for entity: EntityDescription, _ db: Database) throws -> [Statement] {
        var statements: [Statement] = []
        func add(_ sql: String, isCleanup: Bool = false) {
            statements.append(Statement(entity: entity.name, sql: sql, isCleanup: isCleanup))
        }
        let table = Store.quote(entity.name)
        // The table as it is now: under the entity's name, or under its previous one.
        var storedName = entity.name
        var columns = try self.columns(of: entity.name, db)
        if columns.isEmpty, let previous = entity.renamedFrom, try db.tableExists(previous) {
            storedName = previous
            columns = try self.columns(of: previous, db)
            add("ALTER TABLE \(Store.quote(previous)) RENAME TO \(table)")
        }
        let declaredIndexes = Dictionary(entity.indexes.map { ($0.name(in: entity.name), $0) }, uniquingKeysWith: { first, _ in first })
        if columns.isEmpty {
            let definitions = ["\"_id\" INTEGER PRIMARY KEY", "\"_version\" INTEGER NOT NULL DEFAULT 1"]
                + entity.storedAttributes.map(columnDefinition)
            add("CREATE TABLE \(table) (\(definitions.joined(separator: ", ")))")
            for (name, index) in declaredIndexes.sorted(by: { $0.key < $1.key }) {
                add(createIndex(index, named: name, on: table))
            }
            return statements
        }
        guard columns.contains(where: { $0.name == "_id" }), columns.contains(where: { $0.name == "_version" }) else {
            throw incompatible(entity, "the table exists but was not made by Stillpoint (no _id and _version columns)")
        }
        var converted: [AttributeDescription] = []
        let storedNames = Set(columns.map(\.name))
        for attribute in entity.storedAttributes {
            var position = columns.firstIndex { $0.name == attribute.name }
            if position == nil, let previous = attribute.renamedFrom, let found = columns.firstIndex(where: { $0.name == previous }) {
                add("ALTER TABLE \(table) RENAME COLUMN \(Store.quote(previous)) TO \(Store.quote(attribute.name))")
                columns[found].name = attribute.name
                position = found
            }
            guard let position else {
                guard attribute.isOptional || attribute.defaultValue != nil else {
                    throw incompatible(entity, "the new attribute '\(attribute.name)' is required and has no default value for the existing rows")
                }
                add("ALTER TABLE \(table) ADD COLUMN \(columnDefinition(attribute))")
                columns.append(Column(name: attribute.name, type: attribute.type.sqlType, isNotNull: false, defaultSQL: nil))
                continue
            }
            let storedType = columns[position].type
            if storedType != attribute.type.sqlType {
                guard let conversion = attribute.conversion, conversion.sourceType.sqlType == storedType else {
                    throw incompatible(entity, "the attribute '\(attribute.name)' is stored as \(storedType), the schema declares it \(attribute.type.rawValue); "
                        + "declare a conversion from the stored type to convert the values")
                }
                converted.append(attribute)
            }
        }
        let stored = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?", arguments: [storedName])
        var existingIndexes: Set<String> = []
        for name in stored where Self.isStillpoints(index: name) {
            if declaredIndexes[name] == nil {
                add("DROP INDEX \(Store.quote(name))", isCleanup: true)
            } else {
                existingIndexes.insert(name)
            }
        }
        // A column of an attribute no longer declared, NOT NULL without a default, would fail every insert.
        let attributeNames = Set(entity.storedAttributes.map(\.name))
        let constraining = columns.filter { column in
            !attributeNames.contains(column.name) && column.name != "_id" && column.name != "_version"
                && column.isNotNull && column.defaultSQL == nil
        }
        // A relationship column without its foreign key (a column that held row ids before it was declared a
        // relationship): references to rows that are gone are cleared, and the table is made anew with the key.
        let keyed = Set(try Row.fetchAll(db, sql: "PRAGMA foreign_key_list(\(Store.quote(storedName)))").compactMap { row in
            String.fromDatabaseValue(row["from"])
        })
        let unkeyed = entity.storedAttributes.filter { $0.references != nil && !keyed.contains($0.name) && storedNames.contains($0.name) }
        for column in unkeyed {
            guard let destination = column.references else { continue }
            let name = Store.quote(column.name)
            add("UPDATE \(table) SET \(name) = NULL WHERE \(name) IS NOT NULL AND \(name) NOT IN (SELECT \"_id\" FROM \(Store.quote(destination)))")
        }
        if !constraining.isEmpty || !converted.isEmpty || !unkeyed.isEmpty {
            statements += rebuild(entity, columns: columns, converting: converted)
            existingIndexes = []
        }
        for (name, index) in declaredIndexes.sorted(by: { $0.key < $1.key }) where !existingIndexes.contains(name) {
            add(createIndex(index, named: name, on: table))
        }
        return statements
    }

    /// SQLite can neither drop a NOT NULL constraint nor change a column's type: the table is made anew with the
    /// removed attributes' columns nullable and the converted ones of their new type, the rows copied with their
    /// ids (converted values through ``ConversionFunction``), and the application's own indexes made again.
    /// Inside the migration's transaction, so that a failure leaves the old table.
    private func rebuild(_ entity: EntityDescription, columns: [Column], converting converted: [AttributeDescription]) -> [Statement] {
        let table = Store.quote(entity.name)
        let scratch = Store.quote("_stillpoint_rebuild_" + entity.name)
        var definitions = ["\"_id\" INTEGER PRIMARY KEY", "\"_version\" INTEGER NOT NULL DEFAULT 1"]
        for column in columns where column.name != "_id" && column.name != "_version" {
            if let position = entity.attributePositions[column.name] {
                definitions.append(columnDefinition(entity.storedAttributes[position]))
            } else {
                var definition = "\(Store.quote(column.name)) \(column.type)"
                if let defaultSQL = column.defaultSQL { definition += " DEFAULT \(defaultSQL)" }
                definitions.append(definition)
            }
        }
        let names = columns.map { Store.quote($0.name) }.joined(separator: ", ")
        var functions: [ConversionFunction] = []
        let values = columns.map { column in
            guard let attribute = converted.first(where: { $0.name == column.name }), let conversion = attribute.conversion else {
                return Store.quote(column.name)
            }
            let function = ConversionFunction(number: functions.count, attribute: attribute.name, conversion: conversion)
            functions.append(function)
            return "\(function.name)(\(Store.quote(column.name)), \"_id\")"
        }.joined(separator: ", ")
        let isCleanup = converted.isEmpty
        var copy = Statement(
            entity: entity.name, sql: "INSERT INTO \(scratch) (\(names)) SELECT \(values) FROM \(table)", isCleanup: isCleanup)
        copy.conversions = functions
        var drop = Statement(entity: entity.name, sql: "DROP TABLE \(table)", isCleanup: isCleanup)
        drop.userIndexes = .save
        var rename = Statement(entity: entity.name, sql: "ALTER TABLE \(scratch) RENAME TO \(table)", isCleanup: isCleanup)
        rename.userIndexes = .restore
        return [
            Statement(entity: entity.name, sql: "DROP TABLE IF EXISTS \(scratch)", isCleanup: isCleanup),
            Statement(entity: entity.name, sql: "CREATE TABLE \(scratch) (\(definitions.joined(separator: ", ")))", isCleanup: isCleanup),
            copy, drop, rename,
        ]
    }

    /// Only indexes that Stillpoint names are its own to drop; others are the application's.
    private static func isStillpoints(index name: String) -> Bool {
        name.hasPrefix("index_") || name.hasPrefix("unique_")
    }

    private func columns(of table: String, _ db: Database) throws -> [Column] {
        // Decoded without trapping: the file may hold anything.
        try Row.fetchAll(db, sql: "PRAGMA table_info(\(Store.quote(table)))").compactMap { row in
            guard let name = String.fromDatabaseValue(row["name"]) else { return nil }
            return Column(
                name: name,
                type: (String.fromDatabaseValue(row["type"]) ?? "").uppercased(),
                isNotNull: (Int.fromDatabaseValue(row["notnull"]) ?? 0) != 0,
                defaultSQL: String.fromDatabaseValue(row["dflt_value"]))
        }
    }

    private func createIndex(_ index: IndexDescription, named name: String, on table: String) -> String {
        let columnList = index.attributes.map(Store.quote).joined(separator: ", ")
        return "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(Store.quote(name)) ON \(table) (\(columnList))"
    }

    /// Applies the plan inside the caller's write transaction.
    func migrate(_ db: Database) throws {
        var savedIndexes: [String] = []
        for statement in try plan(db) {
            if statement.userIndexes == .save {
                savedIndexes = try Row.fetchAll(
                    db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL",
                    arguments: [statement.entity]
                ).compactMap { row in
                    guard let name = String.fromDatabaseValue(row[0]), !Self.isStillpoints(index: name) else { return nil }
                    return String.fromDatabaseValue(row[1])
                }
            }
            if !statement.steps.isEmpty {
                let context = MigrationContext(SQLiteMigrationConnection(db: db, schema: schema))
                for version in statement.steps { try version.step?(context) }
            }
            let failure = LockedState<String?>(nil)
            let functions = statement.conversions.map { $0.function(reportingTo: failure) }
            functions.forEach(db.add(function:))
            defer { functions.forEach(db.remove(function:)) }
            do {
                try db.execute(sql: statement.sql)
            } catch let error as DatabaseError where failure.withLock({ $0 }) != nil {
                throw StoreError.incompatibleSchema(path: path, entity: statement.entity, reason: failure.withLock { $0 } ?? error.description)
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                throw StoreError.incompatibleSchema(
                    path: path, entity: statement.entity, reason: "a new uniqueness constraint does not hold for the existing rows (\(error.message ?? ""))")
            }
            if statement.userIndexes == .restore {
                for sql in savedIndexes { try db.execute(sql: sql) }
                savedIndexes = []
            }
        }
        // Foreign keys are off while a migration runs (the caller's doing): every one must hold before it commits.
        if try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") != nil {
            try completeCascades(db)
        }
        if let broken = try Row.fetchOne(db, sql: "PRAGMA foreign_key_check") {
            let table = String.fromDatabaseValue(broken["table"]) ?? "?"
            throw StoreError.incompatibleSchema(
                path: path, entity: table, reason: "after the migration, a row of \(table) refers to a row of \(String.fromDatabaseValue(broken["parent"]) ?? "?") that does not exist")
        }
    }

    /// Deletes the rows that go with the row they refer to (`ON DELETE CASCADE`: a many-to-many's links) when that
    /// row is gone: another program deleted it with foreign keys off, so the cascade never ran. This completes it;
    /// a broken reference of any other kind still stops the open.
    private func completeCascades(_ db: Database) throws {
        for entity in schema.entities {
            for column in entity.storedAttributes where column.isDeletedWithReference {
                guard let destination = column.references else { continue }
                let name = Store.quote(column.name)
                try db.execute(sql: "DELETE FROM \(Store.quote(entity.name)) WHERE \(name) IS NOT NULL "
                    + "AND \(name) NOT IN (SELECT \"_id\" FROM \(Store.quote(destination)))")
            }
        }
    }

    private func columnDefinition(_ attribute: AttributeDescription) -> String {
        var definition = "\(Store.quote(attribute.name)) \(attribute.type.sqlType)"
        if !attribute.isOptional { definition += " NOT NULL" }
        if let destination = attribute.references {
            definition += " REFERENCES \(Store.quote(destination)) (\"_id\")" + (attribute.isDeletedWithReference ? " ON DELETE CASCADE" : "")
        }
        if let defaultValue = attribute.defaultValue, !defaultValue.isNull {
            definition += " DEFAULT \(Self.literal(defaultValue))"
        }
        return definition
    }

    private func incompatible(_ entity: EntityDescription, _ reason: String) -> StoreError {
        .incompatibleSchema(path: path, entity: entity.name, reason: reason)
    }

    /// A SQL literal for a typed default value. Only defaults declared in Swift reach here, never user input.
    static func literal(_ value: AttributeValue) -> String {
        switch value {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .double(let value): return value.isFinite ? "\(value)" : "NULL"
        case .bool(let value): return value ? "1" : "0"
        case .date(let value): return "\(value.timeIntervalSince1970)"
        case .string(let value): return "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
        case .uuid(let value): return "'\(value.uuidString)'"
        case .binary(let value): return "X'" + value.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }
}
