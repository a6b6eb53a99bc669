import Foundation
import GRDB
import Testing
@testable import StillpointCore
@testable import StillpointSQLite

/// What an open checks before it uses a store: the path's kind, the store's format version, and its integrity
/// after an unclean close only.
@Suite("Store preflight")
struct StorePreflightTests {
    @Test(arguments: [StoreAccess.readWrite, .readOnly])
    func aFolderIsNotAStore(access: StoreAccess) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: StoreError.notAFile(path: directory.path)) {
            try PersistentContainer(schema: try Schema([Item.self]), location: .file(directory), access: access)
        }
        #expect(StoreError.notAFile(path: directory.path).description.contains("is a folder"))
    }

    @Test func aNewStoreIsMarkedWithTheCurrentVersion() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = try makeContainer(at: .file(directory.appendingPathComponent("store.sqlite")))
        #expect(try container.storeVersion() == PersistentContainer.storeFormatVersion)
        #expect(PersistentContainer.storeFormatVersion >= 1)
    }

    @Test(arguments: [StoreAccess.readWrite, .readOnly])
    func aStoreOfANewerVersionIsRefusedAndLeftAlone(access: StoreAccess) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("store.sqlite")
        try makeContainer(at: .file(url)).close()
        let newer = PersistentContainer.storeFormatVersion + 1
        do {
            let queue = try DatabaseQueue(path: url.path)
            try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA user_version = \(newer)") }
            try queue.close()
        }
        let before = try Data(contentsOf: url)
        let error = StoreError.newerVersion(path: url.path, version: newer, supported: PersistentContainer.storeFormatVersion)
        #expect(throws: error) {
            try PersistentContainer(schema: try Schema([Item.self, Row3.self, Kitchen.self]), location: .file(url), access: access)
        }
        #expect(error.description.contains("version \(newer)") && error.description.contains("up to \(newer - 1)"))
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func aClosedStoreHasNoOpenWriterAndOneOpenForWritingHasOne() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("store.sqlite")
        let container = try makeContainer(at: .file(url))
        #expect(try openWriters(url) == 1)
        let reader = try makeReader(url)
        #expect(try openWriters(url) == 1)
        try reader.close()
        try container.close()
        #expect(try openWriters(url) == 0)
        // Dropped without close(): still closed cleanly.
        do { _ = try makeContainer(at: .file(url)) }
        #expect(try openWriters(url) == 0)
    }

    /// A damaged store that was closed cleanly opens without a full read (the damage is found by `check`); the
    /// same store left by a writer that was killed is checked and refused.
    @Test func integrityIsCheckedOnlyAfterAnUncleanClose() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("store.sqlite")
        try fillAndClose(url)
        try damageIndexPages(url)
        let reader = try makeReader(url)
        #expect(try !reader.integrityProblems().isEmpty)
        try reader.close()

        // A writer of a process that is gone (a pid no process has) never closed the store.
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO \"\(OpenWriters.table)\" (\"token\", \"pid\", \"opened\") VALUES ('killed', ?, 0)",
                           arguments: [Int64(Int32.max)])
        }
        try queue.close()
        #expect {
            _ = try makeReader(url)
        } throws: { error in
            guard case StoreError.corrupt(let path, _) = error else { return false }
            return path == url.path
        }
    }

    @Test func aSoundStoreLeftByAKilledWriterIsCheckedOnceThenMarkedClean() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("store.sqlite")
        try fillAndClose(url)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO \"\(OpenWriters.table)\" (\"token\", \"pid\", \"opened\") VALUES ('killed', ?, 0)",
                           arguments: [Int64(Int32.max)])
        }
        try queue.close()
        try makeContainer(at: .file(url)).close()
        #expect(try openWriters(url) == 0)
    }

    /// The file may hold anything: a row of the wrong types counts as a writer that is gone, and never traps.
    @Test func anOpenWriterRowOfTheWrongTypesIsAWriterThatIsGone() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("store.sqlite")
        try fillAndClose(url)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO \"\(OpenWriters.table)\" (\"token\", \"pid\", \"opened\") VALUES ('odd', 'not a pid', 'x')")
            try db.execute(sql: "INSERT INTO \"\(OpenWriters.table)\" (\"token\", \"pid\", \"opened\") VALUES (X'00FF', 1e300, 0)")
        }
        try queue.close()
        try makeReader(url).close()
        try makeContainer(at: .file(url)).close()
        #expect(try openWriters(url) <= 1)
    }

    @Test func aStoreOnAReadOnlyMediumIsReadAsItIs() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("store.sqlite")
        try fillAndClose(url)
        #expect(StorePreflight.immutableURI("/a b/c?d#e%.sqlite") == "file:/a%20b/c%3Fd%23e%25.sqlite?immutable=1")
        // The immutable fallback reads a store whose WAL files cannot be made (tested on a real read-only mount
        // in the tool's tests).
        let queue = try DatabaseQueue(path: StorePreflight.immutableURI(url.path), configuration: {
            var configuration = Configuration()
            configuration.readonly = true
            return configuration
        }())
        #expect(try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM Item") } == 500)
        try queue.close()
    }

    private func makeReader(_ url: URL) throws -> PersistentContainer {
        try PersistentContainer(schema: try Schema([Item.self, Row3.self, Kitchen.self]), location: .file(url), access: .readOnly)
    }

    private func openWriters(_ url: URL) throws -> Int {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \"\(OpenWriters.table)\"") ?? -1 }
    }

    /// A store of 500 items, closed cleanly (its WAL folded into the file).
    private func fillAndClose(_ url: URL) throws {
        let container = try makeContainer(at: .file(url))
        try container.sqliteStore.write { db in
            for uid in 0..<500 {
                try db.execute(sql: "INSERT INTO Item (uid, title) VALUES (?, ?)", arguments: [uid, String(repeating: "t", count: 200)])
            }
        }
        try container.close()
    }

    /// Scribbles over the pages of the unique index on `uid`, leaving the tables and the schema intact.
    private func damageIndexPages(_ url: URL) throws {
        let (rootPage, pageSize) = try { () throws -> (Int, Int) in
            let queue = try DatabaseQueue(path: url.path)
            defer { try? queue.close() }
            return try queue.read { db in
                (try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'unique_Item_uid'") ?? 0,
                 try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096)
            }
        }()
        try #require(rootPage > 1)
        var bytes = try Data(contentsOf: url)
        let start = (rootPage - 1) * pageSize
        for offset in stride(from: start + 8, to: min(start + pageSize, bytes.count), by: 3) { bytes[offset] = 0x5A }
        try bytes.write(to: url)
    }
}
