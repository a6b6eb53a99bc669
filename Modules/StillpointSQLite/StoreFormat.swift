import GRDB
import StillpointCore

/// The version of the store's own layout (its bookkeeping tables and columns, not the entities'), kept in
/// SQLite's `PRAGMA user_version` so that reading it costs nothing.
///
/// Version 0 is a store made before versions were recorded; it is read as it is and marked when next opened for
/// writing. A store of a higher version than ``current`` was written by a newer Stillpoint and is refused before
/// anything is written to it: ``StoreError/newerVersion(path:version:supported:)``.
enum StoreFormat {
    /// 1: the change log, its purge point, and the table of open writers (``OpenWriters``). 2: rows linked by
    /// imports (``PersistentContainer/storeFormatVersion``).
    static let current = PersistentContainer.storeFormatVersion

    static func version(of db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
    }

    /// Refuses a store of a newer format.
    static func check(_ db: Database, path: String) throws {
        let version = try version(of: db)
        guard version <= current else {
            throw StoreError.newerVersion(path: path, version: version, supported: current)
        }
    }

    /// Marks the store as of the current format, inside the caller's write transaction.
    static func mark(_ db: Database) throws {
        if try version(of: db) < current {
            try db.execute(sql: "PRAGMA user_version = \(current)")
        }
    }
}
