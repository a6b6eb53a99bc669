import Foundation
@testable import StillpointCore
@testable import StillpointPostgres
import StillpointPostgresTestSupport
import Testing

/// Schema changes between opens of a PostgreSQL store, as `MigrationTests` checks them on SQLite: what the
/// schema no longer declares stops constraining rows, and declared renames keep the data.
@Suite("PostgresMigration", .enabled(if: PostgresTestServer.isWanted))
struct PostgresMigrationTests {
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
    /// An entity whose index name is longer than PostgreSQL's 63-byte identifiers.
    private enum LongNamed: Entity {
        static let value = Attribute<Int>("a_rather_long_attribute_name_for_an_index")
        static let entity = EntityDescription(
            "An_entity_with_a_long_name", attributes: [value], indexes: [IndexDescription([value], isUnique: true)])
    }

    private func indexNames(_ table: String, uri: String) throws -> Set<String> {
        let result = try PostgresConnection(uri: uri).execute(
            "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = $1", [table])
        return Set((0..<result.rowCount).compactMap { result.text(row: $0, column: 0) })
    }

    @Test func aRemovedRequiredAttributeStopsConstrainingInsertsAndKeepsItsValues() async throws {
        let uri = try PostgresTestServer.shared().makeDatabase("removed")
        do {
            let container = try PersistentContainer(schema: try Schema([WithSize.self]), postgres: uri)
            try await container.performBackgroundTask { context in
                let thing = context.insert(WithSize.self)
                thing[WithSize.name] = "old"
                thing[WithSize.size] = 3
                try await context.save()
            }
            try PostgresConnection(uri: uri).execute("CREATE INDEX mine ON \"Thing\" (name)")
        }
        let container = try PersistentContainer(schema: try Schema([WithoutSize.self]), postgres: uri)
        try await container.performBackgroundTask { context in
            context.insert(WithoutSize.self)[WithoutSize.name] = "new"
            try await context.save()
        }
        let rows = try PostgresConnection(uri: uri).execute("SELECT name, size FROM \"Thing\" ORDER BY _id")
        #expect((0..<rows.rowCount).map { [rows.text(row: $0, column: 0), rows.text(row: $0, column: 1)] } == [["old", "3"], ["new", nil]])
        let indexes = try indexNames("Thing", uri: uri)
        #expect(indexes.contains("mine"))
        #expect(!indexes.contains("index_Thing_size"))
    }

    @Test func aDroppedUniquenessConstraintNoLongerRejectsRows() async throws {
        let uri = try PostgresTestServer.shared().makeDatabase("unique")
        do {
            let container = try PersistentContainer(schema: try Schema([UniqueKey.self]), postgres: uri)
            try await container.performBackgroundTask { context in
                context.insert(UniqueKey.self)[UniqueKey.key] = 1
                try await context.save()
            }
        }
        let container = try PersistentContainer(schema: try Schema([AnyKey.self]), postgres: uri)
        try await container.performBackgroundTask { context in
            context.insert(AnyKey.self)[AnyKey.key] = 1
            try await context.save()
        }
        let count = try await container.performBackgroundTask { context in try context.count(for: FetchRequest(AnyKey.self)) }
        #expect(count == 2)
        #expect(try indexNames("Keyed", uri: uri) == ["Keyed_pkey"])
    }

    @Test func anIndexWhoseNameIsCutIsKeptAcrossOpens() throws {
        let uri = try PostgresTestServer.shared().makeDatabase("longname")
        let schema = try Schema([LongNamed.self])
        _ = try PersistentContainer(schema: schema, postgres: uri)
        let before = try PostgresConnection(uri: uri).execute(
            "SELECT indexrelid FROM pg_index JOIN pg_class ON pg_class.oid = indrelid WHERE relname = $1 AND NOT indisprimary",
            [LongNamed.entity.name]).text(row: 0, column: 0)
        _ = try PersistentContainer(schema: schema, postgres: uri)
        let after = try PostgresConnection(uri: uri).execute(
            "SELECT indexrelid FROM pg_index JOIN pg_class ON pg_class.oid = indrelid WHERE relname = $1 AND NOT indisprimary",
            [LongNamed.entity.name]).text(row: 0, column: 0)
        #expect(before != nil)
        #expect(before == after)
    }

    @Test func renamedEntitiesAndAttributesKeepTheirRowsAndIndexes() async throws {
        let uri = try PostgresTestServer.shared().makeDatabase("renamed")
        do {
            let container = try PersistentContainer(schema: try Schema([Sitting.self]), postgres: uri)
            try await container.performBackgroundTask { context in
                let sitting = context.insert(Sitting.self)
                sitting[Sitting.length] = 20
                sitting[Sitting.note] = "Kept"
                try await context.save()
            }
        }
        #expect(throws: StoreError.self) {
            try PersistentContainer(schema: try Schema([Session.self]), postgres: uri, access: .readOnly)
        }
        for _ in 1...2 {
            let container = try PersistentContainer(schema: try Schema([Session.self]), postgres: uri)
            let values = try await container.performBackgroundTask { context in
                try context.fetch(FetchRequest(Session.self)).map { [String($0[Session.duration]), $0[Session.note] ?? ""] }
            }
            #expect(values == [["20", "Kept"]])
            // The folded copies moved with the column: a case-insensitive comparison still finds the row.
            let folded = try await container.performBackgroundTask { context in
                try context.count(for: FetchRequest(Session.self, predicate: try FetchPredicate("note ==[c] %@", "kept")))
            }
            #expect(folded == 1)
            // The primary key's index keeps the name PostgreSQL gave it; Stillpoint's follow the new names.
            #expect(try indexNames("Session", uri: uri).subtracting(["Sitting_pkey"]) == ["unique_Session_duration"])
            #expect(throws: (any Error).self) {
                try PostgresConnection(uri: uri).execute("INSERT INTO \"Session\" (duration) VALUES (20)")
            }
        }
        let tables = try PostgresConnection(uri: uri).execute("SELECT to_regclass('\"Sitting\"') IS NULL")
        #expect(tables.text(row: 0, column: 0) == "t")
    }
}
