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
        /// Removed from `Session`: the renamed table is rebuilt too.
        static let mood = Attribute<Int>("mood")
        static let entity = EntityDescription(
            "Sitting", attributes: [length, note, mood], indexes: [IndexDescription([length], isUnique: true)])
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
                    sitting[Sitting.mood] = 1
                    try await context.save()
                }
                try container.sqliteStore.write { db in try db.execute(sql: "CREATE INDEX by_note ON Sitting (note)") }
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
                #expect(try indexNames("Session", in: container) == ["unique_Session_duration", "by_note"])
                try container.sqliteStore.write { db in try db.execute(sql: "INSERT INTO Session (duration) VALUES (21)") }
                try container.sqliteStore.write { db in try db.execute(sql: "DELETE FROM Session WHERE duration = 21") }
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

    // MARK: Type conversions

    private enum IntegerDuration: Entity {
        static let duration = Attribute<Int>("duration")
        static let entity = EntityDescription("Timed", attributes: [duration], indexes: [IndexDescription([duration], isUnique: true)])
    }
    private enum DoubleDuration: Entity {
        static let duration = Attribute<Double>("duration", conversion: .integerToDouble)
        static let entity = EntityDescription("Timed", attributes: [duration], indexes: [IndexDescription([duration], isUnique: true)])
    }
    private enum RoundedDuration: Entity {
        static let duration = Attribute<Int>("duration", conversion: .roundingDouble)
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
    private enum MappedLevel: Entity {
        static let level = Attribute<Int>("level", conversion: AttributeConversion(from: .string, name: "levelNames") { value in
            guard case .string(let text) = value else { return value }
            return .integer(Int64(text) ?? (text == "high" ? 2 : 1))
        })
        static let entity = EntityDescription("Leveled", attributes: [level])
    }

    private func storeValues<E: Entity>(_ type: E.Type, _ values: [AttributeValue], at url: URL) async throws {
        let container = try PersistentContainer(schema: try Schema([type]), location: .file(url))
        let entity = type.entity.name
        let attribute = try #require(type.entity.attributes.first).name
        try await container.performBackgroundTask { context in
            for value in values {
                try context.insert(entityNamed: entity).setValue(value, forKey: attribute)
            }
            try await context.save()
        }
    }

    @Test func integersBecomeDoublesOnceAndKeepTheirIndex() async throws {
        try await withStoreFile { url in
            try await storeValues(IntegerDuration.self, [.integer(20), .integer(30)], at: url)
            let schema = try Schema([DoubleDuration.self])
            for _ in 1...2 {
                let container = try PersistentContainer(schema: schema, location: .file(url))
                let values = try await container.performBackgroundTask { context in
                    try context.fetch(FetchRequest(DoubleDuration.self, sortedBy: [.ascending(DoubleDuration.duration)])).map { $0[DoubleDuration.duration] }
                }
                #expect(values == [20, 30])
                let stored = try container.sqliteStore.read { db in
                    try String.fetchAll(db, sql: "SELECT typeof(duration) FROM Timed")
                }
                #expect(stored == ["real", "real"])
                #expect(try indexNames("Timed", in: container) == ["unique_Timed_duration"])
                #expect(try container.sqliteStore.read { db in try SchemaMigrator(schema: schema, path: url.path).plan(db) }.isEmpty)
            }
        }
    }

    @Test func doublesAreRoundedToIntegers() async throws {
        try await withStoreFile { url in
            try await storeValues(DoubleDuration.self, [.double(2.5), .double(-2.5), .double(1.4)], at: url)
            let container = try PersistentContainer(schema: try Schema([RoundedDuration.self]), location: .file(url))
            let values = try await container.performBackgroundTask { context in
                try context.fetch(FetchRequest(RoundedDuration.self, sortedBy: [.ascending(RoundedDuration.duration)])).map { $0[RoundedDuration.duration] }
            }
            #expect(values == [-3, 1, 3])
        }
    }

    @Test func textThatIsNotANumberStopsTheOpenNamingTheRowAndChangesNothing() async throws {
        try await withStoreFile { url in
            try await storeValues(TextLevel.self, [.string("12"), .string("high")], at: url)
            #expect {
                try PersistentContainer(schema: try Schema([ParsedLevel.self]), location: .file(url))
            } throws: { error in
                guard case StoreError.incompatibleSchema(_, "Leveled", let reason) = error else { return false }
                return reason.contains("'level' in the row with _id 2") && reason.contains("'high' is not an integer")
            }
            let stored = try await DatabaseQueue(path: url.path).read { db in
                try Row.fetchAll(db, sql: "SELECT typeof(level), level FROM Leveled ORDER BY _id").map { [$0[0] as String, $0[1] as String] }
            }
            #expect(stored == [["text", "12"], ["text", "high"]])
            // A conversion of its own accepts the names.
            let container = try PersistentContainer(schema: try Schema([MappedLevel.self]), location: .file(url))
            let values = try await container.performBackgroundTask { context in
                try context.fetch(FetchRequest(MappedLevel.self)).map { $0[MappedLevel.level] }
            }
            #expect(values == [12, 2])
        }
    }

    @Test func aTypeChangeWithoutAConversionIsRefusedWithAHint() async throws {
        try await withStoreFile { url in
            try await storeValues(TextLevel.self, [.string("12")], at: url)
            enum Unconverted: Entity {
                static let level = Attribute<Int>("level")
                static let entity = EntityDescription("Leveled", attributes: [level])
            }
            #expect {
                try PersistentContainer(schema: try Schema([Unconverted.self]), location: .file(url))
            } throws: { error in
                guard case StoreError.incompatibleSchema(_, "Leveled", let reason) = error else { return false }
                return reason.contains("declare a conversion")
            }
        }
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

    /// Version 2 moves minutes to seconds; `runs` counts the step's runs, `fails` makes it throw.
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

    private func recordedVersion(_ container: PersistentContainer) throws -> Int? {
        try container.sqliteStore.read { db in try Int.fetchOne(db, sql: "SELECT version FROM _stillpoint_schema_version") }
    }

    @Test func aVersionsStepRunsOnceAfterTheTablesWereUpgraded() async throws {
        try await withStoreFile { url in
            _ = try PersistentContainer(schema: try Schema([Minutes.self], versions: [SchemaVersion(1)]), location: .file(url))
            try await storeValues(Minutes.self, [.integer(2), .integer(5)], at: url)
            // Not upgraded yet: a reader of version 2 cannot read it.
            let runs = LockedState(0)
            #expect(throws: StoreError.needsUpgrade(path: url.path)) {
                try PersistentContainer(schema: try secondsSchema(runs: runs), location: .file(url), access: .readOnly)
            }
            for _ in 1...2 {
                let container = try PersistentContainer(schema: try secondsSchema(runs: runs), location: .file(url))
                let seconds = try await container.performBackgroundTask { context in
                    try context.fetch(FetchRequest(Seconds.self, sortedBy: [.ascending(Seconds.seconds)])).map { $0[Seconds.seconds] }
                }
                #expect(seconds == [120, 300])
                #expect(try recordedVersion(container) == 2)
            }
            #expect(runs.withLock { $0 } == 1)
        }
    }

    @Test func aNewStoreStartsAtTheLatestVersionWithoutRunningSteps() async throws {
        let runs = LockedState(0)
        for location in [StoreLocation.inMemory, .file(try temporaryDirectory().appendingPathComponent("store.sqlite"))] {
            let container = try PersistentContainer(schema: try secondsSchema(runs: runs), location: location)
            #expect(try recordedVersion(container) == 2)
            if case .file(let url) = location { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        }
        #expect(runs.withLock { $0 } == 0)
    }

    @Test func aFailingStepLeavesTheStoreAsItWas() async throws {
        try await withStoreFile { url in
            _ = try PersistentContainer(schema: try Schema([Minutes.self], versions: [SchemaVersion(1)]), location: .file(url))
            try await storeValues(Minutes.self, [.integer(2)], at: url)
            #expect(throws: AttributeConversion.Failure.self) {
                try PersistentContainer(schema: try secondsSchema(runs: LockedState(0), fails: true), location: .file(url))
            }
            let container = try PersistentContainer(schema: try Schema([Minutes.self], versions: [SchemaVersion(1)]), location: .file(url))
            let columns = try container.sqliteStore.read { db in try db.columns(in: "Timed").map(\.name) }
            #expect(columns == ["_id", "_version", "minutes"])
            #expect(try recordedVersion(container) == 1)
        }
    }

    @Test func aStoreOfANewerSchemaVersionIsRefusedBeforeAnythingChanges() async throws {
        try await withStoreFile { url in
            _ = try PersistentContainer(schema: try secondsSchema(runs: LockedState(0)), location: .file(url))
            let before = try Data(contentsOf: url)
            for access in [StoreAccess.readWrite, .readOnly] {
                #expect(throws: StoreError.newerSchemaVersion(path: url.path, version: 2, latest: 1)) {
                    try PersistentContainer(
                        schema: try Schema([Minutes.self], versions: [SchemaVersion(1)]), location: .file(url), access: access)
                }
            }
            #expect(try Data(contentsOf: url) == before)
            #expect(StoreError.newerSchemaVersion(path: "p", version: 2, latest: 1).description.contains("newer application"))
        }
    }

    @Test func versionsMustIncrease() {
        #expect(throws: SchemaError.self) {
            try Schema([Seconds.self], versions: [SchemaVersion(2), SchemaVersion(2)])
        }
        #expect(throws: SchemaError.self) {
            try Schema([Seconds.self], versions: [SchemaVersion(0)])
        }
    }
}
