import Foundation
import GRDB

/// Direct SQLite access to a store the tool made, for what a test must do or see behind the tool's back: hold
/// the write lock, set the format version, count rows, check integrity.
struct StoreFile {
    let path: String

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private func queue(readOnly: Bool = false) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = readOnly
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// One integer a query returns.
    func integer(_ sql: String) throws -> Int {
        let queue = try queue(readOnly: true)
        defer { try? queue.close() }
        return try queue.read { db in try Int.fetchOne(db, sql: sql) ?? -1 }
    }

    /// SQLite's full integrity check: `["ok"]` for a sound store.
    func integrityCheck() throws -> [String] {
        let queue = try queue(readOnly: true)
        defer { try? queue.close() }
        return try queue.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }
    }

    /// Sets `PRAGMA user_version`, where the store keeps its format version.
    func setVersion(_ version: Int) throws {
        let queue = try queue()
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA user_version = \(version)") }
        try queue.close()
    }

    /// Runs `body` while another connection holds the store's write lock (`BEGIN IMMEDIATE`) with an uncommitted
    /// insert, as an import in another process does between its batches.
    func whileWriteLocked<T>(_ body: () throws -> T) throws -> T {
        let queue = try queue()
        let locked = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            try? queue.inDatabase { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                try db.execute(sql: #"INSERT INTO "Session" ("start", "duration", "kind", "source", "key") VALUES (0, 60, 'yoga', 'test', 'held')"#)
                locked.signal()
                release.wait()
                try db.execute(sql: "ROLLBACK")
            }
            done.signal()
        }
        thread.start()
        guard locked.wait(timeout: .now() + 10) == .success else {
            release.signal()
            throw Failure(description: "could not take the write lock of \(path)")
        }
        defer {
            release.signal()
            done.wait()
            try? queue.close()
        }
        return try body()
    }
}
