import GRDBSQLite

/// A bare SQLite connection through the C API: the baseline Stillpoint is compared with.
///
/// Opened on the same kind of store as the Stillpoint side: a file in WAL mode with `synchronous = NORMAL`
/// (what GRDB's `DatabasePool` sets), or a private in-memory database. Use it on one thread only.
final class RawSQLite {
    private var connection: OpaquePointer?

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(_ store: StoreKind, in directory: TemporaryDirectory) throws {
        let path = store == .file ? directory.url.appendingPathComponent("raw.sqlite").path : ":memory:"
        let code = sqlite3_open_v2(path, &connection, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK else {
            defer { sqlite3_close_v2(connection) }
            throw Failure(description: "cannot open \(path): \(String(cString: sqlite3_errstr(code)))")
        }
        if store == .file {
            try execute("PRAGMA journal_mode = WAL")
            try execute("PRAGMA synchronous = NORMAL")
        }
    }

    deinit {
        sqlite3_close_v2(connection)
    }

    /// Runs SQL statements that return no rows worth reading.
    func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(connection, sql, nil, nil, &message) == SQLITE_OK else {
            defer { sqlite3_free(message) }
            throw Failure(description: "\(sql): \(message.map { String(cString: $0) } ?? "error")")
        }
    }

    /// A prepared statement; the caller finalizes it.
    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(connection, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure(sql)
        }
        return statement
    }

    /// Steps a statement that returns no row, and resets it for the next bindings.
    func stepDone(_ statement: OpaquePointer, _ sql: String) throws {
        guard sqlite3_step(statement) == SQLITE_DONE else { throw failure(sql) }
        sqlite3_reset(statement)
    }

    /// The single integer a query returns.
    func integer(_ sql: String) throws -> Int64 {
        let statement = try prepare(sql)
        defer { sqlite3_finalize(statement) }
        guard sqlite3_step(statement) == SQLITE_ROW else { throw failure(sql) }
        return sqlite3_column_int64(statement, 0)
    }

    func failure(_ sql: String) -> Failure {
        Failure(description: "\(sql): \(String(cString: sqlite3_errmsg(connection)))")
    }

    /// SQLite's "copy the bytes now" destructor, for binding Swift strings.
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
