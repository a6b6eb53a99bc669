import Foundation
import GRDB
import StillpointPostgres
import Testing
@testable import StillpointCore
@testable import StillpointSQLite

@Suite("Store")
struct StoreTests {
    @Test func fileStoreUsesWAL() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = try makeContainer(at: .file(directory.appendingPathComponent("store.sqlite")))
        let mode = try container.sqliteStore.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }

    /// Not SQLite in memory: its one connection serves readers and the writer in turn.
    @Test(arguments: TestStore.shareable)
    func readersRunWhileAWriterWrites(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...3, in: container)
        // Hold the store's write transaction open with an uncommitted insert, and read meanwhile.
        let insert = #"INSERT INTO "Item" ("uid", "title") VALUES (99, 'pending')"#
        let writing = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let writer = Thread {
            try? container.store.writing(interruptedBy: nil) { writer in
                if let connection = writer as? SQLiteStoreConnection {
                    try connection.db.execute(sql: insert)
                } else if let connection = writer as? PostgresStoreConnection {
                    try connection.connection.execute(insert)
                }
                writing.signal()
                release.wait()
            }
        }
        writer.start()
        writing.wait()
        let count = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Item.self)) }
        release.signal()
        #expect(count == 3)
    }

    /// Opening a store whose tables are as the schema wants changes nothing in them, so it never waits for
    /// another process's reads.
    @Test(arguments: TestStore.shareable)
    func anOpenDoesNotWaitForAnotherReadersSnapshot(store: TestStore) async throws {
        let location = try await store.makeLocation()
        let first = try makeContainer(at: location)
        try await insertItems(1...3, in: first)
        let opened = DispatchSemaphore(value: 0)
        let openedInTime = try await first.newBackgroundContext().perform { context in
            try context.withPinnedSnapshot {
                // The snapshot has read the table, and holds it until it ends.
                _ = try context.count(for: FetchRequest(Item.self))
                Thread {
                    _ = try? makeContainer(at: location)
                    opened.signal()
                }.start()
                return opened.wait(timeout: .now() + 10) == .success
            }
        }
        if !openedInTime { opened.wait() }  // it opens once the snapshot ends
        #expect(openedInTime, "the second open waited for the first container's read transaction")
    }

    @Test(arguments: TestStore.shareable)
    func reopeningWithAnExtendedSchemaUpgradesInPlace(store: TestStore) async throws {
        let location = try await store.makeLocation()
        enum Before: Entity {
            static let name = Attribute<String>("name")
            static let entity = EntityDescription("Thing", attributes: [name])
        }
        enum After: Entity {
            static let name = Attribute<String>("name")
            static let weight = Attribute<Double>("weight", default: 1.5)
            static let label = Attribute<String?>("label")
            static let entity = EntityDescription("Thing", attributes: [name, weight, label], indexes: [IndexDescription([name])])
        }
        enum Extra: Entity {
            static let value = Attribute<Int>("value")
            static let entity = EntityDescription("Extra", attributes: [value])
        }
        do {
            let container = try openContainer(schema: try Schema([Before.self]), location: location)
            try await container.performBackgroundTask { context in
                context.insert(Before.self)[Before.name] = "kept"
                try await context.save()
            }
        }
        let container = try openContainer(schema: try Schema([After.self, Extra.self]), location: location)
        try await container.performBackgroundTask { context in
            let thing = try context.fetch(FetchRequest(After.self))[0]
            #expect(thing[After.name] == "kept")
            #expect(thing[After.weight] == 1.5)
            #expect(thing[After.label] == nil)
            context.insert(Extra.self)[Extra.value] = 1
            try await context.save()
        }
        let indexes = store == .postgres
            ? "SELECT COUNT(*) FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'index_Thing_name'"
            : "SELECT COUNT(*) FROM sqlite_master WHERE type = 'index' AND name = 'index_Thing_name'"
        #expect(try container.integer(indexes) == 1)
    }

    @Test(arguments: TestStore.shareable)
    func schemaChangesThatCannotBeMadeInPlaceAreErrorsAndChangeNothing(store: TestStore) async throws {
        let location = try await store.makeLocation()
        enum Original: Entity {
            static let name = Attribute<String>("name")
            static let entity = EntityDescription("Thing", attributes: [name])
        }
        enum Retyped: Entity {
            static let name = Attribute<Int>("name")
            static let entity = EntityDescription("Thing", attributes: [name])
        }
        enum RequiredAdded: Entity {
            static let name = Attribute<String>("name")
            static let size = Attribute<Int>("size")
            static let entity = EntityDescription("Thing", attributes: [name, size])
        }
        do {
            let original = try openContainer(schema: try Schema([Original.self]), location: location)
            try await original.performBackgroundTask { context in
                context.insert(Original.self)[Original.name] = "kept"
                try await context.save()
            }
            try original.close()
        }
        let before = try storedShape(at: location)
        #expect {
            _ = try openContainer(schema: try Schema([Retyped.self]), location: location)
        } throws: { error in
            guard case StoreError.incompatibleSchema(let path, "Thing", let reason) = error else { return false }
            return path == location.displayPath && reason.contains("'name' is stored as")
        }
        #expect {
            _ = try openContainer(schema: try Schema([RequiredAdded.self]), location: location)
        } throws: { error in
            guard case StoreError.incompatibleSchema(_, "Thing", let reason) = error else { return false }
            return reason.contains("'size' is required and has no default")
        }
        #expect(try storedShape(at: location) == before)
    }

    /// What a refused reopen must leave as it was: the file's bytes, or the server's columns and rows.
    private func storedShape(at location: StoreLocation) throws -> [String] {
        guard let uri = location.postgresURI else {
            guard let url = location.fileURL else { return [] }
            return [try Data(contentsOf: url).base64EncodedString()]
        }
        let columns = try PostgresConnection(uri: uri).execute("""
            SELECT table_name || '.' || column_name || ' ' || data_type FROM information_schema.columns
            WHERE table_schema = current_schema() ORDER BY 1
            """)
        let rows = try PostgresConnection(uri: uri).execute(#"SELECT "name" FROM "Thing" ORDER BY 1"#)
        return (0..<columns.rowCount).map { columns.text(row: $0, column: 0) ?? "" }
            + (0..<rows.rowCount).map { rows.text(row: $0, column: 0) ?? "" }
    }

    @Test func aFileThatIsNotADatabaseIsReportedAndLeftAlone() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("notes.sqlite")
        let content = Data("Started At,Duration\n01/01/2024 10:00:00,0:10:0\n".utf8)
        try content.write(to: url)
        #expect(throws: StoreError.notADatabase(path: url.path)) { try makeContainer(at: .file(url)) }
        #expect(try Data(contentsOf: url) == content)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["notes.sqlite"])
        #expect(StoreError.notADatabase(path: url.path).description.contains(url.path))
    }

    @Test func aCorruptDatabaseIsReportedAndLeftAlone() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("store.sqlite")
        do {
            let queue = try DatabaseQueue(path: url.path)
            try await queue.write { db in
                // A store (known by its change log and an entity's table) made before store versions were
                // recorded, so the open checks it.
                try db.execute(sql: "CREATE TABLE _stillpoint_history (sequence INTEGER PRIMARY KEY)")
                try db.execute(sql: "CREATE TABLE Item (_id INTEGER PRIMARY KEY, _version INTEGER, title TEXT)")
                for index in 0..<2_000 {
                    try db.execute(sql: "INSERT INTO Item (_version, title) VALUES (1, ?)", arguments: [String(repeating: "x", count: 100) + "\(index)"])
                }
            }
            try queue.close()
        }
        // Scribble over the pages after the first one, keeping the header intact.
        var bytes = try Data(contentsOf: url)
        for offset in stride(from: 4096, to: bytes.count, by: 7) { bytes[offset] = 0x5A }
        try bytes.write(to: url)
        #expect {
            _ = try makeContainer(at: .file(url))
        } throws: { error in
            guard case StoreError.corrupt(let path, _) = error else { return false }
            return path == url.path
        }
        #expect(try Data(contentsOf: url) == bytes)
    }

    @Test func aMissingDirectoryIsReported() throws {
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/store.sqlite")
        #expect(throws: StoreError.missingDirectory(path: url.deletingLastPathComponent().path)) { try makeContainer(at: .file(url)) }
    }

    @Test func aReadOnlyDirectoryIsReported() throws {
        let directory = try temporaryDirectory()
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
            try? FileManager.default.removeItem(at: directory)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.path)
        let url = directory.appendingPathComponent("store.sqlite")
        #expect(throws: StoreError.readOnlyDirectory(path: directory.path)) { try makeContainer(at: .file(url)) }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func schemaDeclarationMistakesAreCaught() {
        enum Twice: Entity {
            static let a = Attribute<Int>("a")
            static let entity = EntityDescription("Twice", attributes: [a, a])
        }
        enum Reserved: Entity {
            static let a = Attribute<Int>("_version")
            static let entity = EntityDescription("Reserved", attributes: [a])
        }
        enum BadIndex: Entity {
            static let a = Attribute<Int>("a")
            static let entity = EntityDescription("BadIndex", attributes: [a], indexes: [IndexDescription(names: ["b"])])
        }
        #expect(throws: SchemaError.self) { try Schema([Twice.self]) }
        #expect(throws: SchemaError.self) { try Schema([Reserved.self]) }
        #expect(throws: SchemaError.unknownAttribute(entity: "BadIndex", attribute: "b", suggestion: "a")) { try Schema([BadIndex.self]) }
        #expect(throws: SchemaError.unknownEntity("Itme", suggestion: "Item")) { try Schema([Item.self]).entity(named: "Itme") }
    }
}
