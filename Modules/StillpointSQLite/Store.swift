import Foundation
import GRDB
import GRDBSQLite
import StillpointCore
import StillpointSQL

/// The SQLite store: opens the file or in-memory database and is the store seam's driver for it
/// (``StoreDriver``, in `Store+Driver.swift`).
///
/// Everything above the seam speaks entities, rows and change sets; only this module knows that the store is
/// SQLite (and imports GRDB), as only `StillpointPostgres` knows PostgreSQL.
final class Store: Sendable {
    let location: StoreLocation
    let schema: Schema
    let access: StoreAccess
    /// Tells this process's change-log entries from other processes'; also this open's row in ``OpenWriters``.
    let processToken = UUID().uuidString
    private let writer: any DatabaseWriter
    /// Closing waits for the reads and writes under way, and fails those that come after.
    private let gate = AccessGate()
    /// The query generations held on the store, released when it closes so that its last checkpoint is not held up.
    private let generations = LockedState<[ObjectIdentifier: SQLiteGeneration]>([:])

    /// Opens the store at `location`: read-write (creating it if needed, and upgrading its tables to `schema`),
    /// or read-only (the store must exist and be up to date; nothing is written).
    ///
    /// A store that cannot be opened or upgraded is left exactly as it was; so is another program's database,
    /// unless `addingToForeignDatabase` says to add the store's tables to it (``StorePreflight``).
    init(location: StoreLocation, schema: Schema, access: StoreAccess = .readWrite, addingToForeignDatabase: Bool = false) throws {
        self.location = location
        self.schema = schema
        self.access = access
        var configuration = Configuration()
        // Another process (or container) may hold the write lock for a moment: a writer waits rather than fail.
        // Readers of a WAL store never wait for a writer.
        configuration.busyMode = .timeout(10)
        configuration.readonly = access == .readOnly && location != .inMemory
        configuration.prepareDatabase { db in
            SQLFunctions.register(in: db)
        }
        var staleWriters: [String] = []
        if let url = location.fileURL {
            let path = url.path
            let findings = try StorePreflight.check(fileAt: url, schema: schema, access: access,
                                                    addingToForeignDatabase: addingToForeignDatabase)
            staleWriters = findings.staleWriters
            do {
                writer = try DatabasePool(path: findings.openPath, configuration: configuration)
            } catch {
                throw StoreError.translating(error, path: path)
            }
        } else if location == .inMemory {
            writer = try DatabaseQueue(configuration: configuration)
        } else {
            throw StoreError.storeModuleMissing(path: location.displayPath, module: "the store module of '\(location.scheme)' locations")
        }
        guard configuration.readonly == false else { return }
        let migrator = SchemaMigrator(schema: schema, path: location.displayPath)
        let token = processToken
        let isFile = location != .inMemory
        do {
            try writer.writeWithoutTransaction { db in
                // A table rebuilt by the migration is dropped and made again: with foreign keys on, dropping it
                // would delete (or refuse over) the rows that refer to it. They are off for the migration, which
                // checks every key before it commits (SQLite's own procedure for changing a table).
                try db.execute(sql: "PRAGMA foreign_keys = OFF")
                defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
                try db.inTransaction(.immediate) {
                    // Again inside the write transaction: a newer Stillpoint may have upgraded the store meanwhile.
                    try StoreFormat.check(db, path: location.displayPath)
                    try migrator.migrate(db)
                    try StoreFormat.mark(db)
                    if isFile { try OpenWriters.register(token: token, removing: staleWriters, in: db) }
                    return .commit
                }
            }
        } catch {
            throw StoreError.translating(error, path: location.displayPath)
        }
    }

    deinit {
        // A container dropped without `close()`: still mark the store closed cleanly.
        if access == .readWrite, location != .inMemory, !gate.isClosed {
            let token = processToken
            try? writer.write { db in try OpenWriters.unregister(token: token, in: db) }
        }
    }

    /// The error of an access after ``close()``.
    private func closed() -> any Error {
        StoreError.sqlite(path: location.displayPath, code: SQLITE_MISUSE, message: "the store was closed")
    }

    /// Runs `body` in a read transaction that sees one consistent state of the store.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            return try gate.access(orThrow: closed) { try writer.read(body) }
        } catch {
            throw StoreError.translating(error, path: location.displayPath)
        }
    }

    /// Runs `body` in one write transaction: all of it is saved, or none of it.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        guard access == .readWrite else { throw StoreError.readOnly(path: location.displayPath) }
        let doorbell = location.fileURL
        do {
            return try gate.access(orThrow: closed) {
                try writer.write { db in
                    Self.ringOnCommit(doorbell, of: db)
                    return try body(db)
                }
            }
        } catch {
            throw StoreError.translating(error, path: location.displayPath)
        }
    }

    /// Runs `body` in one write transaction on the store's writer, without blocking the caller's thread.
    func writeAsync<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        guard access == .readWrite else { throw StoreError.readOnly(path: location.displayPath) }
        let doorbell = location.fileURL
        do {
            return try await gate.access(orThrow: closed) {
                try await writer.write { db in
                    Self.ringOnCommit(doorbell, of: db)
                    return try body(db)
                }
            }
        } catch {
            throw StoreError.translating(error, path: location.displayPath)
        }
    }

    /// Tells other processes' watchers that a commit is there to read (``StoreDoorbell``) the moment the
    /// transaction of `db` commits, on the writer: not after the writing task's hop back to the thread pool, which
    /// a busy machine may delay by milliseconds. A store in memory has no doorbell (`url` is `nil`); a transaction
    /// rolled back does not ring.
    private static func ringOnCommit(_ url: URL?, of db: Database) {
        guard let url else { return }
        db.afterNextTransaction(onCommit: { _ in StoreDoorbell.ring(for: url) })
    }

    /// Runs `body` in a read transaction without blocking the caller's thread.
    func readAsync<T: Sendable>(_ body: @escaping @Sendable (Database) throws -> T) async throws -> T {
        do {
            return try await gate.access(orThrow: closed) { try await writer.read(body) }
        } catch {
            throw StoreError.translating(error, path: location.displayPath)
        }
    }

    /// Holds a read transaction open on a connection of its own (``SQLiteGeneration``): the store's state now.
    func holdGeneration() throws -> any StoreGeneration {
        // An in-memory store has one connection: a read held on it would keep every save waiting.
        guard let pool = writer as? DatabasePool else {
            throw ContextError.queryGenerationUnavailable(store: location.displayPath)
        }
        let snapshot: DatabaseSnapshot
        do {
            snapshot = try gate.access(orThrow: closed) { try pool.makeSnapshot() }
        } catch {
            throw StoreError.translating(error, path: location.displayPath)
        }
        let generation = SQLiteGeneration(snapshot, path: location.displayPath) { [generations] released in
            generations.withLock { $0[ObjectIdentifier(released)] = nil }
        }
        generations.withLock { $0[ObjectIdentifier(generation)] = generation }
        return generation
    }

    /// Closes the store's connections, checkpointing the WAL into the main file (read-write) and marking the
    /// store closed cleanly. Later use fails.
    func close() throws {
        for generation in generations.withLock({ $0.values }) { generation.release() }
        let wasOpen = gate.close()
        do {
            if wasOpen, location.fileURL != nil, access == .readWrite {
                let token = processToken
                // Best effort (the disk may be full): a row left behind only costs the next open an integrity check.
                try? writer.write { db in try OpenWriters.unregister(token: token, in: db) }
                try writer.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
            }
            try writer.close()
        } catch {
            throw StoreError.translating(error, path: location.displayPath)
        }
    }

    /// The store's format version (``StoreFormat``).
    func formatVersion() throws -> Int {
        try read { db in try StoreFormat.version(of: db) }
    }

    /// SQLite's full integrity check: `[]` when the store is sound, else at most `limit` lines of damage.
    func integrityProblems(limit: Int) throws -> [String] {
        let limit = max(1, limit)
        do {
            let lines = try gate.access(orThrow: closed) { try writer.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check(\(limit))") } }
            return lines == ["ok"] ? [] : lines
        } catch let error as DatabaseError where error.resultCode == .SQLITE_CORRUPT || error.resultCode == .SQLITE_NOTADB {
            // Damage so deep that the check itself stops at it.
            return [error.message ?? "the database disk image is malformed"]
        } catch {
            throw StoreError.translating(error, path: location.displayPath)
        }
    }

    /// Quotes an identifier (a table or column name) for SQL.
    static func quote(_ identifier: String) -> String {
        SQLDialect.sqlite.quote(identifier)
    }
}

extension StoreError {
    /// Turns an error thrown by SQLite or GRDB into a store error that names the path.
    static func translating(_ error: any Error, path: String) -> any Error {
        if let failure = error as? SQLiteFailure {
            if failure.code & 0xFF == SQLITE_FULL { return StoreError.diskFull(path: path) }
            return StoreError.sqlite(path: path, code: failure.code, message: failure.message)
        }
        guard let databaseError = error as? DatabaseError else { return error }
        // A request compiled from a predicate nested deeper than SQLite's parser takes (about 45 levels, where the
        // format allows 100): the predicate's problem, told as one, and not a fault of the store.
        if databaseError.resultCode == .SQLITE_ERROR, databaseError.message == "parser stack overflow" {
            return FetchPredicateError(.syntax, "the predicate nests deeper than SQLite can compile (its parser's stack overflowed); "
                                       + "write it with fewer levels of parentheses, NOT or minus signs")
        }
        switch databaseError.resultCode {
        case .SQLITE_INTERRUPT:
            return CancellationError()
        case .SQLITE_NOTADB:
            return StoreError.notADatabase(path: path)
        case .SQLITE_FULL:
            return StoreError.diskFull(path: path)
        case .SQLITE_CORRUPT:
            return StoreError.corrupt(path: path, detail: databaseError.message ?? "corrupt")
        default:
            return StoreError.sqlite(
                path: path, code: databaseError.extendedResultCode.rawValue, message: databaseError.message ?? "unknown error")
        }
    }
}
