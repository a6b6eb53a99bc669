import Foundation
import GRDB
import Testing
@testable import StillpointCore
@testable import StillpointSQLite

@Suite("Store")
struct StoreTests {
    @Test func fileStoreUsesWAL() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = try makeContainer(.file(directory.appendingPathComponent("store.sqlite")))
        let mode = try container.sqliteStore.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }

    @Test func readersRunWhileAWriterWrites() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = try makeContainer(.file(directory.appendingPathComponent("store.sqlite")))
        try await insertItems(1...3, in: container)
        // Hold a write transaction open with an uncommitted insert, and read meanwhile.
        let store = try container.sqliteStore
        let writing = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let writer = Thread {
            try? store.write { db in
                try db.execute(sql: "INSERT INTO Item (uid, title) VALUES (99, 'pending')")
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

    @Test func reopeningWithAnExtendedSchemaUpgradesInPlace() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("store.sqlite")
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
            let container = try PersistentContainer(schema: try Schema([Before.self]), location: .file(url))
            try await container.performBackgroundTask { context in
                context.insert(Before.self)[Before.name] = "kept"
                try await context.save()
            }
        }
        let container = try PersistentContainer(schema: try Schema([After.self, Extra.self]), location: .file(url))
        try await container.performBackgroundTask { context in
            let thing = try context.fetch(FetchRequest(After.self))[0]
            #expect(thing[After.name] == "kept")
            #expect(thing[After.weight] == 1.5)
            #expect(thing[After.label] == nil)
            context.insert(Extra.self)[Extra.value] = 1
            try await context.save()
        }
        let indexes = try container.sqliteStore.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'Thing'") }
        #expect(indexes.contains("index_Thing_name"))
    }

    @Test func schemaChangesThatCannotBeMadeInPlaceAreErrorsAndChangeNothing() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("store.sqlite")
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
            let container = try PersistentContainer(schema: try Schema([Original.self]), location: .file(url))
            try await container.performBackgroundTask { context in
                context.insert(Original.self)[Original.name] = "kept"
                try await context.save()
            }
        }
        let before = try Data(contentsOf: url)
        #expect {
            _ = try PersistentContainer(schema: try Schema([Retyped.self]), location: .file(url))
        } throws: { error in
            guard case StoreError.incompatibleSchema(let path, "Thing", let reason) = error else { return false }
            return path == url.path && reason.contains("'name' is stored as TEXT")
        }
        #expect {
            _ = try PersistentContainer(schema: try Schema([RequiredAdded.self]), location: .file(url))
        } throws: { error in
            guard case StoreError.incompatibleSchema(_, "Thing", let reason) = error else { return false }
            return reason.contains("'size' is required and has no default")
        }
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aFileThatIsNotADatabaseIsReportedAndLeftAlone() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("notes.sqlite")
        let content = Data("Started At,Duration\n01/01/2024 10:00:00,0:10:0\n".utf8)
        try content.write(to: url)
        #expect(throws: StoreError.notADatabase(path: url.path)) { try makeContainer(.file(url)) }
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
                try db.execute(sql: "CREATE TABLE filler (x TEXT)")
                for index in 0..<2_000 { try db.execute(sql: "INSERT INTO filler VALUES (?)", arguments: [String(repeating: "x", count: 100) + "\(index)"]) }
            }
            try queue.close()
        }
        // Scribble over the pages after the first one, keeping the header intact.
        var bytes = try Data(contentsOf: url)
        for offset in stride(from: 4096, to: bytes.count, by: 7) { bytes[offset] = 0x5A }
        try bytes.write(to: url)
        #expect {
            _ = try makeContainer(.file(url))
        } throws: { error in
            guard case StoreError.corrupt(let path, _) = error else { return false }
            return path == url.path
        }
        #expect(try Data(contentsOf: url) == bytes)
    }

    @Test func aMissingDirectoryIsReported() throws {
        let url = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/store.sqlite")
        #expect(throws: StoreError.missingDirectory(path: url.deletingLastPathComponent().path)) { try makeContainer(.file(url)) }
    }

    @Test func aReadOnlyDirectoryIsReported() throws {
        let directory = try temporaryDirectory()
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
            try? FileManager.default.removeItem(at: directory)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory.path)
        let url = directory.appendingPathComponent("store.sqlite")
        #expect(throws: StoreError.readOnlyDirectory(path: directory.path)) { try makeContainer(.file(url)) }
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
