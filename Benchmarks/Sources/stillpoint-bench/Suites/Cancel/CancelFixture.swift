import Foundation
import GRDBSQLite
import StillpointCore
import StillpointSQLite
import Synchronization

/// The store of N practices the `cancel` suite scans, built once per size per process and shared by every
/// measurement (they only read it), with one container open on it.
///
/// Stillpoint makes the store (so that the table is exactly Stillpoint's), then one raw SQLite connection fills
/// it with one prepared INSERT in one transaction, and closing that connection folds the WAL into the file.
/// The container is then opened once and kept: opening a container on the file while the previous one closes
/// (its last connection checkpointing the WAL) could fail with "database is locked". The folders are removed
/// when the process exits.
actor CancelFixture {
    static let shared = CancelFixture()

    struct Store: Sendable {
        let url: URL
        let container: PersistentContainer
        /// Seconds it took to build, table and rows.
        let buildSeconds: Double
    }

    private var stores: [Int: Store] = [:]

    /// The store with `rows` practices, built on first use.
    func store(rows: Int) throws -> Store {
        if let store = stores[rows] { return store }
        let directory = try TemporaryDirectory()
        Self.removeAtExit(directory.url)
        let url = directory.url.appendingPathComponent("practice.sqlite")
        let clock = ContinuousClock()
        let start = clock.now
        try PersistentContainer(schema: Practice.schema, location: .file(url)).close()
        try Self.fill(url, rows: rows)
        let container = try PersistentContainer(schema: Practice.schema, location: .file(url))
        let store = Store(url: url, container: container, buildSeconds: (clock.now - start).seconds)
        stores[rows] = store
        return store
    }

    private static func fill(_ url: URL, rows: Int) throws {
        var connection: OpaquePointer?
        defer { sqlite3_close_v2(connection) }
        guard sqlite3_open_v2(url.path, &connection, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
            throw Failure("cannot open \(url.path): \(String(cString: sqlite3_errmsg(connection)))")
        }
        func execute(_ sql: String) throws {
            guard sqlite3_exec(connection, sql, nil, nil, nil) == SQLITE_OK else {
                throw Failure("\(sql): \(String(cString: sqlite3_errmsg(connection)))")
            }
        }
        try execute("PRAGMA synchronous = OFF")
        try execute("BEGIN")
        let sql = #"INSERT INTO "Practice" ("start", "duration", "kind", "note") VALUES (?, ?, ?, ?)"#
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK else {
            throw Failure("\(sql): \(String(cString: sqlite3_errmsg(connection)))")
        }
        defer { sqlite3_finalize(statement) }
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for index in 0..<rows {
            let row = Practice.row(index)
            sqlite3_bind_double(statement, 1, row.start)
            sqlite3_bind_int64(statement, 2, Int64(row.duration))
            sqlite3_bind_text(statement, 3, row.kind, -1, transient)
            sqlite3_bind_text(statement, 4, row.note, -1, transient)
            guard sqlite3_step(statement) == SQLITE_DONE else {
                throw Failure("\(sql): \(String(cString: sqlite3_errmsg(connection)))")
            }
            sqlite3_reset(statement)
        }
        try execute("COMMIT")
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: Clean-up

    private static let directories = Mutex<[URL]>([])

    private static func removeAtExit(_ url: URL) {
        let first = directories.withLock { directories in
            directories.append(url)
            return directories.count == 1
        }
        if first {
            atexit {
                for url in CancelFixture.directories.withLock({ $0 }) {
                    try? FileManager.default.removeItem(at: url)
                }
            }
        }
    }
}
