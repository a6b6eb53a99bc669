import Foundation
import GRDB
import GRDBSQLite
import StillpointCore

/// The store's persistent history: one row per save or batch operation, so that contexts in this and other
/// processes can catch up on what changed since a sequence number.
package enum ChangeLog {
    static let table = "_stillpoint_history"
    static let createTable = """
        CREATE TABLE IF NOT EXISTS "\(table)" (
            "sequence" INTEGER PRIMARY KEY AUTOINCREMENT, "author" TEXT NOT NULL,
            "timestamp" REAL NOT NULL, "changes" TEXT NOT NULL, "origin" TEXT NOT NULL DEFAULT '');
        CREATE TABLE IF NOT EXISTS "\(purgeTable)" ("id" INTEGER PRIMARY KEY CHECK ("id" = 1), "through" INTEGER NOT NULL);
        INSERT OR IGNORE INTO "\(purgeTable)" ("id", "through") SELECT 1, coalesce(
            (SELECT min("sequence") - 1 FROM "\(table)"), (SELECT "seq" FROM sqlite_sequence WHERE "name" = '\(table)'), 0)
        """
    /// One row: the sequence number the history has been purged through, so that a token from before it is
    /// refused rather than answered with part of the history. A store made before it gets what its history shows.
    static let purgeTable = "_stillpoint_history_purge"

    /// Appends a save's or batch's change-log entry (``ChangeLogPayload``) and returns its sequence number, its
    /// place in the history.
    static func record(_ payload: String, author: String, origin: StoreOrigin, timestamp: Date, in db: Database) throws -> Int64 {
        try db.run("INSERT INTO \"\(table)\" (\"author\", \"timestamp\", \"changes\", \"origin\") VALUES (?, ?, ?, ?)",
                   [.string(author), .double(timestamp.timeIntervalSince1970), .string(payload), .string(origin.process)])
        return db.lastInsertedRowID
    }

    /// The change sets recorded after `sequence`, oldest first; `excludingProcess` leaves out one process's own.
    /// An entry whose changes cannot be read goes to `damaged` with its sequence number, which throws or skips it.
    static func changeSets(after sequence: Int64, excludingProcess process: String? = nil, in db: Database,
                           damaged: (Int64) throws -> Void) throws -> [ChangeSet] {
        var changeSets: [ChangeSet] = []
        try db.query("SELECT \"sequence\", \"author\", \"timestamp\", \"changes\" FROM \"\(table)\" WHERE \"sequence\" > ? AND \"origin\" IS NOT ? ORDER BY \"sequence\"",
                     [.integer(sequence), process.map(AttributeValue.string) ?? .null]) { statement in
            guard case .string(let author) = AttributeValue(column: 1, of: statement, as: .string),
                  case .string(let payload) = AttributeValue(column: 3, of: statement, as: .string),
                  let changeSet = ChangeLogPayload.changeSet(
                      sequence: sqlite3_column_int64(statement, 0), author: author,
                      timestamp: Date(timeIntervalSince1970: sqlite3_column_double(statement, 2)), text: payload) else {
                try damaged(sqlite3_column_int64(statement, 0))
                return
            }
            changeSets.append(changeSet)
        }
        return changeSets
    }

    /// The sequence number of the latest recorded change, or 0; purged changes still count (`AUTOINCREMENT`
    /// never hands out a number twice, and SQLite keeps the largest in `sqlite_sequence`).
    static func lastSequence(in db: Database) throws -> Int64 {
        var last: Int64 = 0
        try db.query("SELECT \"seq\" FROM sqlite_sequence WHERE \"name\" = ?", [.string(table)]) { last = sqlite3_column_int64($0, 0) }
        return last
    }

    /// Deletes the history up to and including `sequence`, and remembers how far it went.
    static func purge(through sequence: Int64, in db: Database) throws {
        let through = min(sequence, try lastSequence(in: db))
        guard through > 0 else { return }
        try db.run("DELETE FROM \"\(table)\" WHERE \"sequence\" <= ?", [.integer(through)])
        try db.run("""
            INSERT INTO "\(purgeTable)" ("id", "through") VALUES (1, ?)
            ON CONFLICT ("id") DO UPDATE SET "through" = max("through", excluded."through")
            """, [.integer(through)])
    }

    /// Every change set recorded after `sequence`, oldest first, or an error: ``StoreError/historyPurged(path:token:purgedThrough:)``
    /// when some of them were purged, ``StoreError/corrupt(path:detail:)`` when one cannot be read. A partial
    /// history would leave the caller's objects silently stale.
    static func completeHistory(after sequence: Int64, in db: Database, path: String) throws -> [ChangeSet] {
        var purged: Int64 = 0
        try db.query("SELECT \"through\" FROM \"\(purgeTable)\"") { purged = sqlite3_column_int64($0, 0) }
        guard sequence >= purged else {
            throw StoreError.historyPurged(path: path, token: HistoryToken(sequence: sequence), purgedThrough: HistoryToken(sequence: purged))
        }
        return try changeSets(after: sequence, in: db) { damaged in
            throw StoreError.corrupt(path: path, detail: "the change log's entry \(damaged) in \(table) cannot be read")
        }
    }
}
