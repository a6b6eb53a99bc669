import GRDB
import StillpointCore

/// What a SQLite database is, as far as Stillpoint is concerned: one of its stores, an empty database, or
/// another program's database.
///
/// A store is recognised by its tables, not by `PRAGMA user_version`, which any program may set: it has a table of
/// one of the schema's entities (or of a name it was renamed from) with the row id and version columns every entity
/// table has, or nothing but Stillpoint's own tables (`_stillpoint_…`, such as the change log). Stillpoint's change
/// log beside other tables only is another application built on StillpointCore, with a schema of its own, and
/// belongs to that application. A database with no tables, views or triggers, and neither `user_version` nor
/// `application_id` set, is empty. Anything else belongs to another program.
///
/// ```swift
/// switch try StoreRecognition(db, schema: schema) {
/// case .store: ...                                // open it
/// case .emptyDatabase: ...                        // a new store may be made in it
/// case .foreign(let tables, let userVersion): ... // ["notes"], 7: refuse it, untouched
/// }
/// ```
enum StoreRecognition: Equatable {
    case store
    case emptyDatabase
    /// Another program's database: its first few tables, and its `user_version`.
    case foreign(tables: [String], userVersion: Int)

    /// How many of a foreign database's tables are named in messages.
    static let namedTables = 3

    /// The prefix of the tables Stillpoint keeps for itself in every store, whatever its schema.
    static let internalTablePrefix = "_stillpoint_"

    init(_ db: Database, schema: Schema) throws {
        for entity in schema.entities {
            for name in [entity.name] + (entity.renamedFrom.map { [$0] } ?? []) where try db.tableExists(name) {
                let columns = try Set(db.columns(in: name).map(\.name))
                if columns.isSuperset(of: ["_id", "_version"]) {
                    self = .store
                    return
                }
            }
        }
        // Decoded without trapping: the file may hold anything.
        let objects = try Row.fetchAll(db, sql: "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
        let userVersion = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        let applicationID = try Int.fetchOne(db, sql: "PRAGMA application_id") ?? 0
        guard !objects.isEmpty || userVersion != 0 || applicationID != 0 else {
            self = .emptyDatabase
            return
        }
        let tables = objects.compactMap { row in
            String.fromDatabaseValue(row["type"]) == "table" ? String.fromDatabaseValue(row["name"]) : nil
        }
        let ownTables = tables.filter { !$0.hasPrefix(Self.internalTablePrefix) }
        if try db.tableExists(ChangeLog.table) {
            // A store whose entities' tables are not made yet has Stillpoint's tables only; a change log beside
            // other entities is a store of another schema, named by those entities.
            self = ownTables.isEmpty ? .store : .foreign(tables: Array(ownTables.prefix(Self.namedTables)), userVersion: userVersion)
            return
        }
        self = .foreign(tables: Array(tables.prefix(Self.namedTables)), userVersion: userVersion)
    }
}
