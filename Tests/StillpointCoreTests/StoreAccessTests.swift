import Foundation
import GRDB
import StillpointPostgres
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
        try await makeStore(at: .file(url))
        return url
    }

    /// A store of three items at `location`, closed.
    private static func makeStore(at location: StoreLocation) async throws {
        let container = try makeContainer(at: location)
        try await insertItems(1...3, in: container)
        try container.close()
    }

    @Test(arguments: TestStore.shareable)
    func aReadOnlyContainerFetches(store: TestStore) async throws {
        let location = try await store.makeLocation()
        try await Self.makeStore(at: location)
        let reader = try openContainer(schema: try Self.schema(), location: location, access: .readOnly)
        #expect(reader.isReadOnly)
        let count = try await reader.newBackgroundContext().perform { try $0.count(for: FetchRequest(Item.self)) }
        #expect(count == 3)
    }

    @Test(arguments: TestStore.shareable)
    func aReadOnlyContainerRefusesSavesWithAClearError(store: TestStore) async throws {
        let location = try await store.makeLocation()
        try await Self.makeStore(at: location)
        let before = try Self.contents(of: location)
        let reader = try openContainer(schema: try Self.schema(), location: location, access: .readOnly)
        await #expect(throws: StoreError.readOnly(path: location.displayPath)) {
            try await reader.performBackgroundTask { context in
                let item = context.insert(Item.self)
                item[Item.uid] = 99
                try await context.save()
            }
        }
        #expect(StoreError.readOnly(path: location.displayPath).description.contains("opened read-only"))
        try reader.close()
        #expect(try Self.contents(of: location) == before)
    }

    /// What a read-only container must leave as it was: the file's bytes, or the server's items and change log.
    private static func contents(of location: StoreLocation) throws -> [String] {
        guard let uri = location.postgresURI else {
            guard let url = location.fileURL else { return [] }
            return [try Data(contentsOf: url).base64EncodedString()]
        }
        let connection = try PostgresConnection(uri: uri)
        return try [#"SELECT string_agg("uid" || ' ' || "title", ',' ORDER BY "uid") FROM "Item""#,
                    "SELECT COUNT(*)::text FROM \(PostgresChangeLog.table)"].map { sql in
            try connection.execute(sql).text(row: 0, column: 0) ?? ""
        }
    }

    @Test(arguments: TestStore.shareable)
    func aReadOnlyContainerDoesNotWaitForAWriter(store: TestStore) async throws {
        let location = try await store.makeLocation()
        try await Self.makeStore(at: location)
        // Another connection holds the write lock, with an uncommitted insert, for longer than the test lasts.
        let insert = #"INSERT INTO "Item" ("uid", "title") VALUES (99, 'pending')"#
        let writing = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let thread = Thread {
            if let url = location.fileURL {
                try? DatabaseQueue(path: url.path).inDatabase { db in
                    try db.execute(sql: "BEGIN IMMEDIATE")
                    try db.execute(sql: insert)
                    writing.signal()
                    release.wait()
                    try db.execute(sql: "ROLLBACK")
                }
            } else if let uri = location.postgresURI {
                guard let connection = try? PostgresConnection(uri: uri) else {
                    writing.signal()
                    return
                }
                _ = try? connection.transaction {
                    try connection.execute(insert)
                    writing.signal()
                    release.wait()
                    throw CancellationError()  // rolls the insert back
                }
            } else {
                writing.signal()
            }
        }
        thread.start()
        writing.wait()
        defer { release.signal() }
        // On SQLite the read-write open would wait on the lock (its busy timeout) and then fail; the read-only one
        // does not. On PostgreSQL neither waits.
        let reader = try openContainer(schema: try Self.schema(), location: location, access: .readOnly)
        let count = try await reader.newBackgroundContext().perform { try $0.count(for: FetchRequest(Item.self)) }
        #expect(count == 3)
        if location.postgresURI != nil {
            let opened = DispatchSemaphore(value: 0)
            Thread {
                _ = try? openContainer(schema: try Self.schema(), location: location)
                opened.signal()
            }.start()
            let openedInTime = opened.wait(timeout: .now() + 10) == .success
            #expect(openedInTime, "the read-write open waited for the other connection's write transaction")
        }
    }

    @Test(arguments: TestStore.shareable)
    func aReadOnlyOpenOfAMissingStoreCreatesNothing(store: TestStore) async throws {
        let location = try await store.makeLocation()
        #expect(throws: StoreError.noStore(path: location.displayPath)) {
            try openContainer(schema: try Self.schema(), location: location, access: .readOnly)
        }
        if let url = location.fileURL {
            #expect(try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path).isEmpty)
        } else if let uri = location.postgresURI {
            let tables = try PostgresConnection(uri: uri)
                .execute("SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = current_schema()")
            #expect(tables.integer(row: 0, column: 0) == 0)
        } else {
            Issue.record("an in-memory store cannot be opened twice")
        }
    }

    @Test(arguments: TestStore.shareable)
    func readingUpgradesAStoreThatNeedsItThenReadsOnly(store: TestStore) async throws {
        let location = try await store.makeLocation()
        try makeContainer(at: location, entities: [Item.self]).close()
        // A new entity: a read-only open cannot create its table.
        #expect(throws: StoreError.needsUpgrade(path: location.displayPath)) {
            try openContainer(schema: try Self.schema(), location: location, access: .readOnly)
        }
        // PersistentContainer.reading upgrades a SQLite file first; a server store is upgraded by a read-write open.
        let reader: PersistentContainer
        if let url = location.fileURL {
            reader = try PersistentContainer.reading(schema: try Self.schema(), url: url)
        } else {
            try openContainer(schema: try Self.schema(), location: location).close()
            reader = try openContainer(schema: try Self.schema(), location: location, access: .readOnly)
        }
        #expect(reader.isReadOnly)
        let count = try await reader.newBackgroundContext().perform { try $0.count(for: FetchRequest(Kitchen.self)) }
        #expect(count == 0)
    }
}
