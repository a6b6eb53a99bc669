import Foundation
import GRDB
import StillpointCore

/// The store's clean-close marker: one row per container that has the store open for writing, added when it
/// opens and removed when it closes.
///
/// A row whose process is gone is a writer that never closed (killed, crashed, or the machine went down): only
/// then does an open check the store's integrity, instead of on every open. Read-only containers write nothing
/// and add no row, since they cannot damage the store. Several writers at once each have their own row, so one
/// closing does not hide another that crashed. A process is judged by its id on this machine: a store shared
/// between machines can cost a needless check, never a skipped one unless an id was reused.
enum OpenWriters {
    static let table = "_stillpoint_open_writers"
    static let createTable = """
        CREATE TABLE IF NOT EXISTS "\(table)" ("token" TEXT PRIMARY KEY, "pid" INTEGER NOT NULL, "opened" REAL NOT NULL)
        """

    /// The tokens of the rows whose process has ended; empty when the table does not exist (an older store).
    static func staleTokens(in db: Database) throws -> [String] {
        guard try db.tableExists(table) else { return [] }
        let own = Int64(getpid())
        // Decoded leniently: a row of the wrong type (the file may hold anything) counts as a writer that is gone.
        return try Row.fetchAll(db, sql: "SELECT \"token\", \"pid\" FROM \"\(table)\"").compactMap { row in
            guard let token = String.fromDatabaseValue(row["token"]) else { return nil }
            let pid = Int64.fromDatabaseValue(row["pid"]) ?? 0
            return pid == own || isRunning(pid) ? nil : token
        }
    }

    /// Records this container's open, and forgets the stale rows whose store was just checked.
    static func register(token: String, removing stale: [String], in db: Database) throws {
        for token in stale {
            try db.execute(sql: "DELETE FROM \"\(table)\" WHERE \"token\" = ?", arguments: [token])
        }
        try db.execute(sql: "INSERT OR REPLACE INTO \"\(table)\" (\"token\", \"pid\", \"opened\") VALUES (?, ?, ?)",
                       arguments: [token, Int64(getpid()), Date().timeIntervalSince1970])
    }

    static func unregister(token: String, in db: Database) throws {
        try db.execute(sql: "DELETE FROM \"\(table)\" WHERE \"token\" = ?", arguments: [token])
    }

    /// Whether a process with this id runs on this machine (one of another user's counts: `kill` says EPERM).
    static func isRunning(_ pid: Int64) -> Bool {
        guard pid > 0, let pid = pid_t(exactly: pid) else { return false }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}
