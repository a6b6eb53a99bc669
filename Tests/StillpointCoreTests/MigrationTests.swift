import Foundation
import GRDB
import Testing
@testable import StillpointCore
@testable import StillpointSQLite

/// Schema changes between opens of a SQLite store: what the schema no longer declares stops constraining rows,
/// and declared renames keep the data. The same cases run on PostgreSQL in `PostgresMigrationTests`.
@Suite("Migration")
struct MigrationTests {
    private enum WithSize: Entity {
        static let name = Attribute<String>("name")
        static let size = Attribute<Int>("size")
        static let entity = EntityDescription("Thing", attributes: [name, size], indexes: [IndexDescription([size])])
    }
    private enum WithoutSize: Entity {
        static let name = Attribute<String>("name")
        static let entity = EntityDescription("Thing", attributes: [name])
    }
    private enum UniqueKey: Entity {
        static let key = Attribute<Int>("key")
        static let entity = EntityDescription("Keyed", attributes: [key], indexes: [IndexDescription([key], isUnique: true)])
    }
    private enum AnyKey: Entity {
        static let key = Attribute<Int>("key")
        static let entity = EntityDescription("Keyed", attributes: [key])
    }
    private enum Sitting: Entity {
        static let length = Attribute<Int>("length")
        static let note = Attribute<String?>("note")
        static let entity = EntityDescription("Sitting", attributes: [length, note], indexes: [IndexDescription([length], isUnique: true)])
    }
    private enum Session: Entity {
        static let duration = Attribute<Int>("duration", renamedFrom: "length")
        static let note = Attribute<String?>("note")
        static let entity = EntityDescription(
            "Session", attributes: [duration, note], indexes: [IndexDescription([duration], isUnique: true)], renamedFrom: "Sitting")
    }

    private func withStoreFile(_ body: (URL) async throws -> Void) async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await body(directory.appendingPathComponent("store.sqlite"))
    }

    private func indexNames(_ table: String, in container: PersistentContainer) throws -> Set<String> {
        Set(try container.sqliteStore.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?", arguments: [table])
        })
    }

    @Test func aRemovedRequiredAttributeStopsConstrainingInsertsAndKeepsItsValues() async throws {
        try await withStoreFile { url in
            do {
                let container = try PersistentContainer(schema: try Schema([WithSize.self]), location: .file(url))
                try await container.performBackgroundTask { context in
                    let thing = context.insert(WithSize.self)
                    thing[WithSize.name] = "old"
                    thing[WithSize.size] = 3
                    try await context.save()
                }
                // An index of the application's own survives the table's rebuild.
                try container.sqliteStore.write { db in try db.execute(sql: "CREATE INDEX mine ON Thing (name)") }
            }
            let container = try PersistentContainer(schema: try Schema([WithoutSize.self]), location: .file(url))
            try await container.performBackgroundTask { context in
                context.insert(WithoutSize.self)[WithoutSize.name] = "new"
                try await context.save()
            }
            let rows = try container.sqliteStore.read { db in
                try Row.fetchAll(db, sql: "SELECT name, size FROM Thing ORDER BY _id").map { [$0["name"] as String?, ($0["size"] as Int?).map(String.init)] }
            }
            #expect(rows == [["old", "3"], ["new", nil]])
            let indexes = try indexNames("Thing", in: container)
            #expect(indexes.contains("mine"))
            #expect(!indexes.contains("index_Thing_size"))
            // Done once: the next open has nothing to do.
            let plan = try container.sqliteStore.read { db in
                try SchemaMigrator(schema: try Schema([WithoutSize.self]), path: url.path).plan(db)
            }
            #expect(plan.isEmpty)
        }
    }

    @Test func aRemovedRequiredAttributeStopsConstrainingInsertsInMemoryToo() throws {
        // An in-memory store is new at each open: the migrator runs twice on one database instead.
        let database = try DatabaseQueue()
        try database.write { db in
            try SchemaMigrator(schema: try Schema([WithSize.self]), path: ":memory:").migrate(db)
            try db.execute(sql: "INSERT INTO Thing (name, size) VALUES ('old', 3)")
            try SchemaMigrator(schema: try Schema([WithoutSize.self]), path: ":memory:").migrate(db)
            try db.execute(sql: "INSERT INTO Thing (name) VALUES ('new')")
        }
        let sizes = try database.read { db in try Int?.fetchAll(db, sql: "SELECT size FROM Thing ORDER BY _id") }
        #expect(sizes == [3, nil])
    }

    @Test func aDroppedUniquenessConstraintNoLongerRejectsRows() async throws {
        try await withStoreFile { url in
            do {
                let container = try PersistentContainer(schema: try Schema([UniqueKey.self]), location: .file(url))
                try await container.performBackgroundTask { context in
                    context.insert(UniqueKey.self)[UniqueKey.key] = 1
                    try await context.save()
                }
                try container.sqliteStore.write { db in try db.execute(sql: "CREATE INDEX keyed_by_hand ON Keyed (key)") }
            }
            let container = try PersistentContainer(schema: try Schema([AnyKey.self]), location: .file(url))
            try await container.performBackgroundTask { context in
                context.insert(AnyKey.self)[AnyKey.key] = 1
                try await context.save()
            }
            let count = try await container.performBackgroundTask { context in try context.count(for: FetchRequest(AnyKey.self)) }
            #expect(count == 2)
            #expect(try indexNames("Keyed", in: container) == ["keyed_by_hand"])
        }
    }

    @Test func renamedEntitiesAndAttributesKeepTheirRowsAndIndexes() async throws {
        try await withStoreFile { url in
            do {
                let container = try PersistentContainer(schema: try Schema([Sitting.self]), location: .file(url))
                try await container.performBackgroundTask { context in
                    let sitting = context.insert(Sitting.self)
                    sitting[Sitting.length] = 20
                    sitting[Sitting.note] = "kept"
                    try await context.save()
                }
            }
            // Not upgraded yet: a reader cannot read the store under the new names.
            #expect(throws: StoreError.needsUpgrade(path: url.path)) {
                try PersistentContainer(schema: try Schema([Session.self]), location: .file(url), access: .readOnly)
            }
            for _ in 1...2 {
                let container = try PersistentContainer(schema: try Schema([Session.self]), location: .file(url))
                let values = try await container.performBackgroundTask { context in
                    try context.fetch(FetchRequest(Session.self)).map { [String($0[Session.duration]), $0[Session.note] ?? ""] }
                }
                #expect(values == [["20", "kept"]])
                #expect(try indexNames("Session", in: container) == ["unique_Session_duration"])
                #expect(try container.sqliteStore.read { db in try db.tableExists("Sitting") } == false)
                // The uniqueness constraint still holds under the new name.
                #expect(throws: (any Error).self) {
                    try container.sqliteStore.write { db in try db.execute(sql: "INSERT INTO Session (duration) VALUES (20)") }
                }
            }
        }
    }

    @Test func renamesThatCollideWithDeclaredNamesAreDeclarationMistakes() {
        #expect(throws: SchemaError.self) {
            try Schema(entities: [EntityDescription("Thing", attributes: [
                Attribute<Int>("size"), Attribute<Int>("weight", renamedFrom: "size"),
            ])])
        }
        #expect(throws: SchemaError.self) {
            try Schema(entities: [
                EntityDescription("Old", attributes: [Attribute<Int>("size")]),
                EntityDescription("New", attributes: [Attribute<Int>("size")], renamedFrom: "Old"),
            ])
        }
    }
}
