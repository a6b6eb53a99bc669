import Foundation
import GRDB
import Testing
@testable import StillpointCore
@testable import StillpointSQLite

/// A store is recognised by its tables, not by `user_version`: another program's SQLite database is refused
/// untouched by every open unless a writer is told to add the store's tables to it, and an empty database is no
/// store yet.
@Suite("Store recognition")
struct StoreRecognitionTests {
    static func schema() throws -> Schema { try Schema([Item.self, Row3.self, Kitchen.self]) }

    /// Another program's database: a table of notes, two rows, and its own `user_version`.
    static func makeForeignDatabase(_ url: URL, userVersion: Int = 0, journalMode: String = "DELETE") throws {
        let queue = try DatabaseQueue(path: url.path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = \(journalMode)")
            try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
            try db.execute(sql: "INSERT INTO notes (body) VALUES ('buy milk'), ('call mum')")
            try db.execute(sql: "PRAGMA user_version = \(userVersion)")
        }
        try queue.close()
    }

    /// The file's bytes and modification time, and the names of the files in its folder.
    static func state(of url: URL) throws -> [String] {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return [try Data(contentsOf: url).base64EncodedString(), "\(attributes[.modificationDate] as? Date ?? .distantPast)"]
            + (try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path).sorted())
    }

    @Test(arguments: [StoreAccess.readOnly, .readWrite], [0, 7])
    func anotherProgramsDatabaseIsRefusedUntouched(access: StoreAccess, userVersion: Int) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("app.db")
        try Self.makeForeignDatabase(url, userVersion: userVersion)
        let before = try Self.state(of: url)
        // Not "written by a newer Stillpoint", whatever its user_version says.
        #expect(throws: StoreError.foreignDatabase(path: url.path, tables: ["notes"])) {
            try PersistentContainer(schema: try Self.schema(), location: .file(url), access: access)
        }
        #expect(throws: StoreError.foreignDatabase(path: url.path, tables: ["notes"])) {
            try PersistentContainer.reading(schema: try Self.schema(), url: url)
        }
        #expect(try Self.state(of: url) == before)
        let message = StoreError.foreignDatabase(path: url.path, tables: ["notes"]).description
        #expect(message.contains("another program's SQLite database") && message.contains("\"notes\"") && message.contains("untouched"))
    }

    @Test func aWriterToldToAddItsTablesKeepsTheOtherProgramsTables() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("app.db")
        try Self.makeForeignDatabase(url)
        let container = try PersistentContainer(schema: try Self.schema(), location: .file(url), addingToForeignDatabase: true)
        #expect(try container.storeVersion() == PersistentContainer.storeFormatVersion)
        try container.close()
        // From now on it is a store, for readers too; the other program's rows are as they were.
        let reader = try PersistentContainer(schema: try Self.schema(), location: .file(url), access: .readOnly)
        #expect(try reader.sqliteStore.read { db in try String.fetchAll(db, sql: "SELECT body FROM notes ORDER BY id") }
                == ["buy milk", "call mum"])
        try reader.close()
    }

    /// Stillpoint keeps its store version in `user_version`: a database whose program sets it cannot be shared.
    @Test func aDatabaseWhoseProgramSetsUserVersionIsNotSharedEvenWhenTold() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("app.db")
        try Self.makeForeignDatabase(url, userVersion: 7)
        let before = try Self.state(of: url)
        #expect(throws: StoreError.foreignDatabaseVersioned(path: url.path, userVersion: 7)) {
            try PersistentContainer(schema: try Self.schema(), location: .file(url), addingToForeignDatabase: true)
        }
        #expect(try Self.state(of: url) == before)
    }

    /// A store made before the change log existed has only its entities' tables, with their `_id` and `_version`.
    @Test func aStoreIsKnownByItsEntityTablesAsWellAsByItsChangeLog() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("old.sqlite")
        let queue = try DatabaseQueue(path: url.path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: #"CREATE TABLE "Item" ("_id" INTEGER PRIMARY KEY, "_version" INTEGER NOT NULL DEFAULT 1, "uid" INTEGER NOT NULL, "title" TEXT NOT NULL DEFAULT '', "score" REAL)"#)
            try db.execute(sql: #"INSERT INTO "Item" ("uid") VALUES (1)"#)
        }
        try queue.close()
        let container = try PersistentContainer.reading(schema: try Self.schema(), url: url)
        let count = try container.sqliteStore.read { db in try Int.fetchOne(db, sql: #"SELECT count(*) FROM "Item""#) }
        #expect(count == 1)
        try container.close()
    }

    /// A SQLite database with nothing in it is like an empty file: no store for a reader, a new one for a writer.
    @Test func anEmptyDatabaseIsNoStoreYet() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("empty.sqlite")
        let queue = try DatabaseQueue(path: url.path)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = WAL") }
        try queue.close()
        #expect(throws: StoreError.noStore(path: url.path)) {
            try PersistentContainer(schema: try Self.schema(), location: .file(url), access: .readOnly)
        }
        let container = try PersistentContainer(schema: try Self.schema(), location: .file(url))
        #expect(try container.storeVersion() == PersistentContainer.storeFormatVersion)
        try container.close()
    }
}
