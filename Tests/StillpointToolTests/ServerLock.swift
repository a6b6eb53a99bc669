import Foundation
import StillpointPostgres

/// Another session holding `ACCESS EXCLUSIVE` locks on a PostgreSQL store's tables of sessions and import runs
/// (every table but the store's own `_stillpoint_` ones), as a `LOCK TABLE` in psql would, until ``release()``:
/// every statement that reads or writes them waits.
///
/// ```swift
/// let lock = try ServerLock(uri)
/// defer { lock.release() }
/// ```
final class ServerLock {
    /// The session that holds the locks.
    private let connection: PostgresConnection
    /// Another session, which sees the server's activity as it is now: inside the locking transaction,
    /// `pg_stat_activity` would stay as it was when the transaction first read it.
    let observer: PostgresConnection

    init(_ uri: String) throws {
        connection = try PostgresConnection(uri: uri)
        observer = try PostgresConnection(uri: uri)
        try lock()
    }

    /// Takes the locks (again, after ``release()``).
    func lock() throws {
        let tables = try connection.execute("""
            SELECT string_agg(quote_ident(tablename), ', ') FROM pg_tables
            WHERE schemaname = current_schema() AND tablename NOT LIKE '\\_stillpoint%'
            """).text(row: 0, column: 0) ?? ""
        try connection.execute("BEGIN")
        try connection.execute("LOCK TABLE \(tables) IN ACCESS EXCLUSIVE MODE")
    }

    /// The server processes of the database `uri` names that wait for one of these locks.
    func waitingProcesses() throws -> [String] {
        let result = try observer.execute("""
            SELECT pid::text FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock'
            """)
        return (0..<result.rowCount).compactMap { result.text(row: $0, column: 0) }
    }

    /// Waits up to `timeout` until some process waits for the locks; false if none did.
    func waitForWaiters(within timeout: Duration) throws -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if try !waitingProcesses().isEmpty { return true }
            usleep(20_000)
        }
        return false
    }

    func release() {
        _ = try? connection.execute("ROLLBACK")
    }
}
