import Foundation
import GRDB
import StillpointCore

/// Creates the schema's tables, and upgrades existing ones in place: new entities, new attributes that are
/// optional or have a default, and new indexes. Anything else is an ``StoreError/incompatibleSchema``.
struct SchemaMigrator {
    let schema: Schema
    let path: String

    /// The statements that bring the store to the schema, or an error when that cannot be done in place.
    /// Empty when the store is up to date, so that a read-only open can tell whether it may read the store.
    func plan(_ db: Database) throws -> [(entity: String, sql: String)] {
        var statements: [(entity: String, sql: String)] = []
        if try !db.tableExists(ChangeLog.table) || !db.tableExists(ChangeLog.purgeTable) {
            statements.append(("", ChangeLog.createTable))
        }
        if try !db.tableExists(OpenWriters.table) {
            statements.append(("", OpenWriters.createTable))
        }
        let indexes = Set(try String?.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'").compactMap { $0 })
        for entity in schema.entities {
            let table = Store.quote(entity.name)
            let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table))")
            if columns.isEmpty {
                let definitions = ["\"_id\" INTEGER PRIMARY KEY", "\"_version\" INTEGER NOT NULL DEFAULT 1"]
                    + entity.attributes.map(columnDefinition)
                statements.append((entity.name, "CREATE TABLE \(table) (\(definitions.joined(separator: ", ")))"))
            } else {
                // Decoded without trapping: the file may hold anything.
                let existing = Dictionary(columns.compactMap { column -> (String, String)? in
                    guard let name = String.fromDatabaseValue(column["name"]) else { return nil }
                    return (name, (String.fromDatabaseValue(column["type"]) ?? "").uppercased())
                }, uniquingKeysWith: { first, _ in first })
                guard existing["_id"] != nil, existing["_version"] != nil else {
                    throw incompatible(entity, "the table exists but was not made by Stillpoint (no _id and _version columns)")
                }
                for attribute in entity.attributes {
                    if let storedType = existing[attribute.name] {
                        guard storedType == attribute.type.sqlType else {
                            throw incompatible(entity, "the attribute '\(attribute.name)' is stored as \(storedType), the schema declares it \(attribute.type.rawValue)")
                        }
                    } else {
                        guard attribute.isOptional || attribute.defaultValue != nil else {
                            throw incompatible(entity, "the new attribute '\(attribute.name)' is required and has no default value for the existing rows")
                        }
                        statements.append((entity.name, "ALTER TABLE \(table) ADD COLUMN \(columnDefinition(attribute))"))
                    }
                }
            }
            for index in entity.indexes where !indexes.contains(index.name(in: entity.name)) {
                let columnList = index.attributes.map(Store.quote).joined(separator: ", ")
                statements.append((entity.name, "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(Store.quote(index.name(in: entity.name))) ON \(table) (\(columnList))"))
            }
        }
        return statements
    }

    /// Applies the plan inside the caller's write transaction.
    func migrate(_ db: Database) throws {
        for statement in try plan(db) {
            do {
                try db.execute(sql: statement.sql)
            } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
                throw StoreError.incompatibleSchema(
                    path: path, entity: statement.entity, reason: "a new uniqueness constraint does not hold for the existing rows (\(error.message ?? ""))")
            }
        }
    }

    private func columnDefinition(_ attribute: AttributeDescription) -> String {
        var definition = "\(Store.quote(attribute.name)) \(attribute.type.sqlType)"
        if !attribute.isOptional { definition += " NOT NULL" }
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
