import Foundation
import GRDB
import Testing
@testable import StillpointCore
@testable import StillpointSQLite

/// Schema changes between opens of a store, on every store that can be opened twice: what the schema no longer
/// declares stops constraining rows, declared renames keep the data, conversions retype values once, and
/// schema versions' steps run once. PostgreSQL's own cases (identifiers it cuts) are in `PostgresMigrationTests`.
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
        /// Removed from `Session`: the renamed table loses its constraint too.
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

    // MARK: Looking at the tables

    /// The indexes of `table`: Stillpoint's and the application's own, not the primary key's.
    private func indexNames(_ table: String, in container: PersistentContainer, _ store: TestStore) throws -> Set<String> {
        let sql = store == .postgres
            ? """
              SELECT index_class.relname FROM pg_index
              JOIN pg_class index_class ON index_class.oid = pg_index.indexrelid
              JOIN pg_class table_class ON table_class.oid = pg_index.indrelid
              JOIN pg_namespace ON pg_namespace.oid = table_class.relnamespace
              WHERE table_class.relname = '\(table)' AND pg_namespace.nspname = current_schema() AND NOT pg_index.indisprimary
              """
            : "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = '\(table)'"
        return Set(try container.strings(sql).compactMap { $0 })
    }

    /// The columns of `table`, in order.
    private func columnNames(_ table: String, in container: PersistentContainer, _ store: TestStore) throws -> [String] {
        let sql = store == .postgres
            ? "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = '\(table)' "
                + "ORDER BY ordinal_position"
            : "SELECT name FROM pragma_table_info('\(table)') ORDER BY cid"
        return try container.strings(sql).compactMap { $0 }
    }

    private func tableExists(_ table: String, in container: PersistentContainer, _ store: TestStore) throws -> Bool {
        let sql = store == .postgres
            ? "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = '\(table)'"
            : "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = '\(table)'"
        return try container.integer(sql) == 1
    }

    /// How the store holds `column`'s values: SQLite's type of each value, PostgreSQL's type of the column.
    private func storedTypes(_ table: String, _ column: String, in container: PersistentContainer, _ store: TestStore) throws -> [String] {
        let sql = store == .postgres
            ? "SELECT data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = '\(table)' "
                + "AND column_name = '\(column)'"
            : "SELECT typeof(\(column)) FROM \(table) ORDER BY _id"
        return try container.strings(sql).compactMap { $0 }
    }

    /// SQLite's migrator has nothing left to do for `schema`: a migration is done once.
    private func expectNothingLeftToMigrate(_ schema: Schema, in container: PersistentContainer, _ store: TestStore) throws {
        guard store.isSQLite else { return }
        let plan = try container.sqliteStore.read { db in
            try SchemaMigrator(schema: schema, path: container.location.displayPath).plan(db)
        }
        #expect(plan.isEmpty)
    }

    /// The bytes of a store file, to show an open changed none; `nil` for a server's store.
    private func fileBytes(_ location: StoreLocation) throws -> Data? {
        guard let url = location.fileURL else { return nil }
        return try Data(contentsOf: url)
    }

    // MARK: Removed attributes and constraints

    @Test(arguments: TestStore.shareable)
    func aRemovedRequiredAttributeStopsConstrainingInsertsAndKeepsItsValues(store: TestStore) async throws {
        let location = try await store.makeLocation()
        do {
            let container = try openContainer(schema: try Schema([WithSize.self]), location: location)
            try await container.performBackgroundTask { context in
                let thing = context.insert(WithSize.self)
                thing[WithSize.name] = "old"
                thing[WithSize.size] = 3
                try await context.save()
            }
            // An index of the application's own survives the table's rebuild.
            try container.executeSQL(#"CREATE INDEX mine ON "Thing" (name)"#)
        }
        let schema = try Schema([WithoutSize.self])
        let container = try openContainer(schema: schema, location: location)
        try await container.performBackgroundTask { context in
            context.insert(WithoutSize.self)[WithoutSize.name] = "new"
            try await context.save()
        }
        #expect(try container.strings(#"SELECT name || '/' || COALESCE(CAST(size AS TEXT), '-') FROM "Thing" ORDER BY _id"#)
                == ["old/3", "new/-"])
        let indexes = try indexNames("Thing", in: container, store)
        #expect(indexes.contains("mine"))
        #expect(!indexes.contains("index_Thing_size"))
        try expectNothingLeftToMigrate(schema, in: container, store)
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

    @Test(arguments: TestStore.shareable)
    func aDroppedUniquenessConstraintNoLongerRejectsRows(store: TestStore) async throws {
        let location = try await store.makeLocation()
        do {
            let container = try openContainer(schema: try Schema([UniqueKey.self]), location: location)
            try await container.performBackgroundTask { context in
                context.insert(UniqueKey.self)[UniqueKey.key] = 1
                try await context.save()
            }
            try container.executeSQL(#"CREATE INDEX keyed_by_hand ON "Keyed" (key)"#)
        }
        let container = try openContainer(schema: try Schema([AnyKey.self]), location: location)
        try await container.performBackgroundTask { context in
            context.insert(AnyKey.self)[AnyKey.key] = 1
            try await context.save()
        }
        let count = try await container.performBackgroundTask { context in try context.count(for: FetchRequest(AnyKey.self)) }
        #expect(count == 2)
        #expect(try indexNames("Keyed", in: container, store) == ["keyed_by_hand"])
    }

    // MARK: Renames

    @Test(arguments: TestStore.shareable)
    func renamedEntitiesAndAttributesKeepTheirRowsAndIndexes(store: TestStore) async throws {
        let location = try await store.makeLocation()
        do {
            let container = try openContainer(schema: try Schema([Sitting.self]), location: location)
            try await container.performBackgroundTask { context in
                let sitting = context.insert(Sitting.self)
                sitting[Sitting.length] = 20
                sitting[Sitting.note] = "Kept"
                sitting[Sitting.mood] = 1
                try await context.save()
            }
            try container.executeSQL(#"CREATE INDEX by_note ON "Sitting" (note)"#)
        }
        // Not upgraded yet: a reader cannot read the store under the new names.
        #expect(throws: StoreError.needsUpgrade(path: location.displayPath)) {
            try openContainer(schema: try Schema([Session.self]), location: location, access: .readOnly)
        }
        for _ in 1...2 {
            let container = try openContainer(schema: try Schema([Session.self]), location: location)
            let values = try await container.performBackgroundTask { context in
                try context.fetch(FetchRequest(Session.self)).map { [String($0[Session.duration]), $0[Session.note] ?? ""] }
            }
            #expect(values == [["20", "Kept"]])
            // Case-insensitive comparisons still find the row (on PostgreSQL, the folded copies moved with the column).
            let folded = try await container.performBackgroundTask { context in
                try context.count(for: FetchRequest(Session.self, predicate: try FetchPredicate("note ==[c] %@", "kept")))
            }
            #expect(folded == 1)
            #expect(try indexNames("Session", in: container, store) == ["unique_Session_duration", "by_note"])
            // The removed attribute no longer constrains rows.
            try container.executeSQL(#"INSERT INTO "Session" (duration) VALUES (21)"#)
            try container.executeSQL(#"DELETE FROM "Session" WHERE duration = 21"#)
            #expect(try tableExists("Sitting", in: container, store) == false)
            // The uniqueness constraint still holds under the new name.
            #expect(throws: (any Error).self) {
                try container.executeSQL(#"INSERT INTO "Session" (duration) VALUES (20)"#)
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
    private enum SpelledLevel: Entity {
        static let level = Attribute<String>("level", default: "", conversion: AttributeConversion(from: .integer, name: "spell") { value in
            guard case .integer(let number) = value else { return value }
            return .string(number > 5 ? "High" : "Low")
        })
        static let entity = EntityDescription("Leveled", attributes: [level])
    }

    private func storeValues<E: Entity>(_ type: E.Type, _ values: [AttributeValue], at location: StoreLocation) async throws {
        let container = try openContainer(schema: try Schema([type]), location: location)
        let entity = type.entity.name
        let attribute = try #require(type.entity.attributes.first).name
        try await container.performBackgroundTask { context in
            for value in values {
                try context.insert(entityNamed: entity).setValue(value, forKey: attribute)
            }
            try await context.save()
        }
    }

    @Test(arguments: TestStore.shareable)
    func integersBecomeDoublesOnceAndKeepTheirIndex(store: TestStore) async throws {
        let location = try await store.makeLocation()
        try await storeValues(IntegerDuration.self, [.integer(20), .integer(30)], at: location)
        let schema = try Schema([DoubleDuration.self])
        for _ in 1...2 {
            let container = try openContainer(schema: schema, location: location)
            let values = try await container.performBackgroundTask { context in
                try context.fetch(FetchRequest(DoubleDuration.self, sortedBy: [.ascending(DoubleDuration.duration)])).map { $0[DoubleDuration.duration] }
            }
            #expect(values == [20, 30])
            #expect(try storedTypes("Timed", "duration", in: container, store) == (store.isSQLite ? ["real", "real"] : ["double precision"]))
            #expect(try indexNames("Timed", in: container, store) == ["unique_Timed_duration"])
            #expect(throws: (any Error).self) {
                try container.executeSQL(#"INSERT INTO "Timed" (duration) VALUES (20)"#)
            }
            try expectNothingLeftToMigrate(schema, in: container, store)
        }
    }

    @Test(arguments: TestStore.shareable)
    func doublesAreRoundedToIntegers(store: TestStore) async throws {
        let location = try await store.makeLocation()
        try await storeValues(DoubleDuration.self, [.double(2.5), .double(-2.5), .double(1.4)], at: location)
        let container = try openContainer(schema: try Schema([RoundedDuration.self]), location: location)
        let values = try await container.performBackgroundTask { context in
            try context.fetch(FetchRequest(RoundedDuration.self, sortedBy: [.ascending(RoundedDuration.duration)])).map { $0[RoundedDuration.duration] }
        }
        #expect(values == [-3, 1, 3])
    }

    @Test(arguments: TestStore.shareable)
    func textThatIsNotANumberStopsTheOpenNamingTheRowAndChangesNothing(store: TestStore) async throws {
        let location = try await store.makeLocation()
        try await storeValues(TextLevel.self, [.string("12"), .string("high")], at: location)
        #expect {
            try openContainer(schema: try Schema([ParsedLevel.self]), location: location)
        } throws: { error in
            guard case StoreError.incompatibleSchema(_, "Leveled", let reason) = error else { return false }
            return reason.contains("'level' in the row with _id 2") && reason.contains("'high' is not an integer")
        }
        do {
            let unchanged = try openContainer(schema: try Schema([TextLevel.self]), location: location, access: .readOnly)
            #expect(try unchanged.strings(#"SELECT level FROM "Leveled" ORDER BY _id"#) == ["12", "high"])
            #expect(try storedTypes("Leveled", "level", in: unchanged, store) == (store.isSQLite ? ["text", "text"] : ["text"]))
        }
        // A conversion of its own accepts the names.
        let container = try openContainer(schema: try Schema([MappedLevel.self]), location: location)
        let values = try await container.performBackgroundTask { context in
            try context.fetch(FetchRequest(MappedLevel.self)).map { $0[MappedLevel.level] }
        }
        #expect(values == [12, 2])
    }

    @Test(arguments: TestStore.shareable)
    func valuesConvertedToTextCompareAsText(store: TestStore) async throws {
        enum IntegerLevel: Entity {
            static let level = Attribute<Int>("level")
            static let entity = EntityDescription("Leveled", attributes: [level])
        }
        let location = try await store.makeLocation()
        try await storeValues(IntegerLevel.self, [.integer(9), .integer(1)], at: location)
        let container = try openContainer(schema: try Schema([SpelledLevel.self]), location: location)
        // Case-insensitively too: on PostgreSQL, the converted values got their folded copies.
        let high = try await container.performBackgroundTask { context in
            try context.fetch(FetchRequest(SpelledLevel.self, predicate: try FetchPredicate("level ==[c] %@", "high"))).map { $0[SpelledLevel.level] }
        }
        #expect(high == ["High"])
        try await container.performBackgroundTask { context in
            _ = context.insert(SpelledLevel.self)
            try await context.save()
        }
        #expect(try storedTypes("Leveled", "level", in: container, store) == (store.isSQLite ? ["text", "text", "text"] : ["text"]))
    }

    @Test(arguments: TestStore.shareable)
    func aTypeChangeWithoutAConversionIsRefusedWithAHint(store: TestStore) async throws {
        let location = try await store.makeLocation()
        try await storeValues(TextLevel.self, [.string("12")], at: location)
        enum Unconverted: Entity {
            static let level = Attribute<Int>("level")
            static let entity = EntityDescription("Leveled", attributes: [level])
        }
        #expect {
            try openContainer(schema: try Schema([Unconverted.self]), location: location)
        } throws: { error in
            guard case StoreError.incompatibleSchema(_, "Leveled", let reason) = error else { return false }
            return reason.contains("declare a conversion")
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

    private func recordedVersion(_ container: PersistentContainer) throws -> Int64? {
        try container.integer("SELECT version FROM _stillpoint_schema_version")
    }

    @Test(arguments: TestStore.shareable)
    func aVersionsStepRunsOnceAfterTheTablesWereUpgraded(store: TestStore) async throws {
        let location = try await store.makeLocation()
        _ = try openContainer(schema: try Schema([Minutes.self], versions: [SchemaVersion(1)]), location: location)
        try await storeValues(Minutes.self, [.integer(2), .integer(5)], at: location)
        // Not upgraded yet: a reader of version 2 cannot read it.
        let runs = LockedState(0)
        #expect(throws: StoreError.needsUpgrade(path: location.displayPath)) {
            try openContainer(schema: try secondsSchema(runs: runs), location: location, access: .readOnly)
        }
        for _ in 1...2 {
            let container = try openContainer(schema: try secondsSchema(runs: runs), location: location)
            let seconds = try await container.performBackgroundTask { context in
                try context.fetch(FetchRequest(Seconds.self, sortedBy: [.ascending(Seconds.seconds)])).map { $0[Seconds.seconds] }
            }
            #expect(seconds == [120, 300])
            #expect(try recordedVersion(container) == 2)
        }
        #expect(runs.withLock { $0 } == 1)
    }

    @Test(arguments: TestStore.all)
    func aNewStoreStartsAtTheLatestVersionWithoutRunningSteps(store: TestStore) async throws {
        let runs = LockedState(0)
        let container = try openContainer(schema: try secondsSchema(runs: runs), location: try await store.makeLocation())
        #expect(try recordedVersion(container) == 2)
        #expect(runs.withLock { $0 } == 0)
    }

    @Test(arguments: TestStore.shareable)
    func aFailingStepLeavesTheStoreAsItWas(store: TestStore) async throws {
        let location = try await store.makeLocation()
        _ = try openContainer(schema: try Schema([Minutes.self], versions: [SchemaVersion(1)]), location: location)
        try await storeValues(Minutes.self, [.integer(2)], at: location)
        #expect(throws: AttributeConversion.Failure.self) {
            try openContainer(schema: try secondsSchema(runs: LockedState(0), fails: true), location: location)
        }
        let container = try openContainer(schema: try Schema([Minutes.self], versions: [SchemaVersion(1)]), location: location)
        #expect(try columnNames("Timed", in: container, store) == ["_id", "_version", "minutes"])
        #expect(try recordedVersion(container) == 1)
    }

    @Test(arguments: TestStore.shareable)
    func aStoreOfANewerSchemaVersionIsRefusedBeforeAnythingChanges(store: TestStore) async throws {
        let location = try await store.makeLocation()
        let runs = LockedState(0)
        _ = try openContainer(schema: try secondsSchema(runs: runs), location: location)
        let fileBefore = try fileBytes(location)
        for access in [StoreAccess.readWrite, .readOnly] {
            #expect(throws: StoreError.newerSchemaVersion(path: location.displayPath, version: 2, latest: 1)) {
                try openContainer(schema: try Schema([Minutes.self], versions: [SchemaVersion(1)]), location: location, access: access)
            }
        }
        #expect(try fileBytes(location) == fileBefore)
        let container = try openContainer(schema: try secondsSchema(runs: runs), location: location, access: .readOnly)
        #expect(try columnNames("Timed", in: container, store) == ["_id", "_version", "seconds"])
        #expect(StoreError.newerSchemaVersion(path: "p", version: 2, latest: 1).description.contains("newer application"))
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
