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

    // MARK: Type conversions

    private enum IntegerDuration: Entity {
        static let duration = Attribute<Int>("duration")
        static let entity = EntityDescription("Timed", attributes: [duration], indexes: [IndexDescription([duration], isUnique: true)])
    }
    private enum DoubleDuration: Entity {
        static let duration = Attribute<Double>("duration", conversion: .integerToDouble)
        static let entity = EntityDescription("Timed", attributes: [duration], indexes: [IndexDescription([duration], isUnique: true)])
    }
    private enum TextLevel: Entity {
        static let level = Attribute<String>("level")
        static let entity = EntityDescription("Leveled", attributes: [level])
    }
    private enum ParsedLevel: Entity {
        static let level = Attribute<Int>("level", conversion: .parsingInteger)
        static let entity = EntityDescription("Leveled", attributes: [level])
    }
    private enum SpelledLevel: Entity {
        static let level = Attribute<String>("level", default: "", conversion: AttributeConversion(from: .integer, name: "spell") { value in
            guard case .integer(let number) = value else { return value }
            return .string(number > 5 ? "High" : "Low")
        })
        static let entity = EntityDescription("Leveled", attributes: [level])
    }

    private func storeValues<E: Entity>(_ type: E.Type, _ values: [AttributeValue], uri: String) async throws {
        let container = try PersistentContainer(schema: try Schema([type]), postgres: uri)
        let entity = type.entity.name
        let attribute = try #require(type.entity.attributes.first).name
        try await container.performBackgroundTask { context in
            for value in values {
                try context.insert(entityNamed: entity).setValue(value, forKey: attribute)
            }
            try await context.save()
        }
    }

    private func columnType(_ table: String, _ column: String, uri: String) throws -> String? {
        try PostgresConnection(uri: uri).execute(
            "SELECT data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_name = $2",
            [table, column]).text(row: 0, column: 0)
    }

    @Test func integersBecomeDoublesOnceAndKeepTheirIndex() async throws {
        let uri = try PostgresTestServer.shared().makeDatabase("todouble")
        try await storeValues(IntegerDuration.self, [.integer(20), .integer(30)], uri: uri)
        for _ in 1...2 {
            let container = try PersistentContainer(schema: try Schema([DoubleDuration.self]), postgres: uri)
            let values = try await container.performBackgroundTask { context in
                try context.fetch(FetchRequest(DoubleDuration.self, sortedBy: [.ascending(DoubleDuration.duration)])).map { $0[DoubleDuration.duration] }
            }
            #expect(values == [20, 30])
            #expect(try columnType("Timed", "duration", uri: uri) == "double precision")
            #expect(throws: (any Error).self) {
                try PostgresConnection(uri: uri).execute("INSERT INTO \"Timed\" (duration) VALUES (20)")
            }
        }
    }

    @Test func textThatIsNotANumberStopsTheOpenNamingTheRowAndChangesNothing() async throws {
        let uri = try PostgresTestServer.shared().makeDatabase("parse")
        try await storeValues(TextLevel.self, [.string("12"), .string("high")], uri: uri)
        #expect {
            try PersistentContainer(schema: try Schema([ParsedLevel.self]), postgres: uri)
        } throws: { error in
            guard case StoreError.incompatibleSchema(_, "Leveled", let reason) = error else { return false }
            return reason.contains("'level' in the row with _id 2") && reason.contains("'high' is not an integer")
        }
        #expect(try columnType("Leveled", "level", uri: uri) == "text")
    }

    @Test func valuesConvertedToTextGetTheirFoldedCopies() async throws {
        let uri = try PostgresTestServer.shared().makeDatabase("totext")
        enum IntegerLevel: Entity {
            static let level = Attribute<Int>("level")
            static let entity = EntityDescription("Leveled", attributes: [level])
        }
        try await storeValues(IntegerLevel.self, [.integer(9), .integer(1)], uri: uri)
        let container = try PersistentContainer(schema: try Schema([SpelledLevel.self]), postgres: uri)
        let high = try await container.performBackgroundTask { context in
            try context.fetch(FetchRequest(SpelledLevel.self, predicate: try FetchPredicate("level ==[c] %@", "high"))).map { $0[SpelledLevel.level] }
        }
        #expect(high == ["High"])
        try await container.performBackgroundTask { context in
            _ = context.insert(SpelledLevel.self)
            try await context.save()
        }
        #expect(try columnType("Leveled", "level", uri: uri) == "text")
    }

    // MARK: Schema versions

    private enum Minutes: Entity {
        static let minutes = Attribute<Int>("minutes")
        static let entity = EntityDescription("Timed", attributes: [minutes])
    }
    private enum Seconds: Entity {
        static let seconds = Attribute<Int>("seconds", default: 0)
        static let entity = EntityDescription("Timed", attributes: [seconds])
    }

    private func secondsSchema(runs: LockedState<Int>, fails: Bool = false) throws -> Schema {
        try Schema([Seconds.self], versions: [
            SchemaVersion(1),
            SchemaVersion(2) { migration in
                runs.withLock { $0 += 1 }
                for row in try migration.rows(of: "Timed", columns: ["minutes"]) {
                    guard case .integer(let minutes) = row["minutes"] else { continue }
                    try migration.update("Timed", id: row.id, ["seconds": .integer(minutes * 60)])
                }
                if fails { throw AttributeConversion.Failure("the step failed") }
            },
        ])
    }

    private func recordedVersion(uri: String) throws -> Int64? {
        try PostgresConnection(uri: uri).execute("SELECT version FROM _stillpoint_schema_version").integer(row: 0, column: 0)
    }

    @Test func aVersionsStepRunsOnceAfterTheTablesWereUpgraded() async throws {
        let uri = try PostgresTestServer.shared().makeDatabase("versions")
        _ = try PersistentContainer(schema: try Schema([Minutes.self], versions: [SchemaVersion(1)]), postgres: uri)
        try await storeValues(Minutes.self, [.integer(2), .integer(5)], uri: uri)
        let runs = LockedState(0)
        #expect(throws: StoreError.self) {
            try PersistentContainer(schema: try secondsSchema(runs: runs), postgres: uri, access: .readOnly)
        }
        #expect(throws: AttributeConversion.Failure.self) {
            try PersistentContainer(schema: try secondsSchema(runs: runs, fails: true), postgres: uri)
        }
        // The failed open left the store as it was.
        #expect(try recordedVersion(uri: uri) == 1)
        #expect(try columnType("Timed", "seconds", uri: uri) == nil)
        runs.withLock { $0 = 0 }
        for _ in 1...2 {
            let container = try PersistentContainer(schema: try secondsSchema(runs: runs), postgres: uri)
            let seconds = try await container.performBackgroundTask { context in
                try context.fetch(FetchRequest(Seconds.self, sortedBy: [.ascending(Seconds.seconds)])).map { $0[Seconds.seconds] }
            }
            #expect(seconds == [120, 300])
            #expect(try recordedVersion(uri: uri) == 2)
        }
        #expect(runs.withLock { $0 } == 1)
        let fresh = try PostgresTestServer.shared().makeDatabase("fresh")
        _ = try PersistentContainer(schema: try secondsSchema(runs: runs), postgres: fresh)
        #expect(try recordedVersion(uri: fresh) == 2)
        #expect(runs.withLock { $0 } == 1)
    }

    @Test func aStoreOfANewerSchemaVersionIsRefusedBeforeAnythingChanges() throws {
        let uri = try PostgresTestServer.shared().makeDatabase("newer")
        _ = try PersistentContainer(schema: try secondsSchema(runs: LockedState(0)), postgres: uri)
        let path = StoreLocation.postgres(uri).displayPath
        for access in [StoreAccess.readWrite, .readOnly] {
            #expect(throws: StoreError.newerSchemaVersion(path: path, version: 2, latest: 1)) {
                try PersistentContainer(schema: try Schema([Minutes.self], versions: [SchemaVersion(1)]), postgres: uri, access: access)
            }
        }
        #expect(try columnType("Timed", "minutes", uri: uri) == nil)
    }
}
