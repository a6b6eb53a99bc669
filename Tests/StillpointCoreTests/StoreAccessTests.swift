import Foundation
import GRDB
import Testing
@testable import StillpointCore
@testable import StillpointSQLite

/// Read-only containers (``StoreAccess/readOnly``): they read, refuse saves, and never wait for a writer.
@Suite("Store access")
struct StoreAccessTests {
    private static func schema() throws -> Schema { try Schema([Item.self, Row3.self, Kitchen.self]) }

    /// A store of three items, closed.
    private static func makeStore(in directory: URL) async throws -> URL {
        let url = directory.appendingPathComponent("store.sqlite")
        let container = try makeContainer(.file(url))
        try await insertItems(1...3, in: container)
        try container.close()
        return url
    }

    @Test func aReadOnlyContainerFetches() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try await Self.makeStore(in: directory)
        let reader = try PersistentContainer(schema: try Self.schema(), location: .file(url), access: .readOnly)
        #expect(reader.isReadOnly)
        let count = try await reader.newBackgroundContext().perform { try $0.count(for: FetchRequest(Item.self)) }
        #expect(count == 3)
    }

    @Test func aReadOnlyContainerRefusesSavesWithAClearError() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try await Self.makeStore(in: directory)
        let before = try Data(contentsOf: url)
        let reader = try PersistentContainer(schema: try Self.schema(), location: .file(url), access: .readOnly)
        await #expect(throws: StoreError.readOnly(path: url.path)) {
            try await reader.performBackgroundTask { context in
                let item = context.insert(Item.self)
                item[Item.uid] = 99
                try await context.save()
            }
        }
        #expect(StoreError.readOnly(path: url.path).description.contains("opened read-only"))
        try reader.close()
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aReadOnlyContainerDoesNotWaitForAWriter() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = try await Self.makeStore(in: directory)
        // Another connection holds the write lock, with an uncommitted insert, for longer than the test lasts.
        let holder = try DatabaseQueue(path: url.path)
        let writing = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let thread = Thread {
            try? holder.inDatabase { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                try db.execute(sql: "INSERT INTO Item (uid, title) VALUES (99, 'pending')")
                writing.signal()
                release.wait()
                try db.execute(sql: "ROLLBACK")
            }
        }
        thread.start()
        writing.wait()
        defer { release.signal() }
        // The read-write open would wait on the lock (its busy timeout) and then fail; the read-only one does not.
        let reader = try PersistentContainer(schema: try Self.schema(), location: .file(url), access: .readOnly)
        let count = try await reader.newBackgroundContext().perform { try $0.count(for: FetchRequest(Item.self)) }
        #expect(count == 3)
    }

    @Test func aReadOnlyOpenOfAMissingStoreCreatesNothing() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("none.sqlite")
        #expect(throws: StoreError.noStore(path: url.path)) {
            try PersistentContainer(schema: try Self.schema(), location: .file(url), access: .readOnly)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func readingUpgradesAStoreThatNeedsItThenReadsOnly() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("store.sqlite")
        try makeContainer(.file(url), entities: [Item.self]).close()
        // A new entity: a read-only open cannot create its table.
        #expect(throws: StoreError.needsUpgrade(path: url.path)) {
            try PersistentContainer(schema: try Self.schema(), location: .file(url), access: .readOnly)
        }
        let reader = try PersistentContainer.reading(schema: try Self.schema(), url: url)
        #expect(reader.isReadOnly)
        let count = try await reader.newBackgroundContext().perform { try $0.count(for: FetchRequest(Kitchen.self)) }
        #expect(count == 0)
    }
}
