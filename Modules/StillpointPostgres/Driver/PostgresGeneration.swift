import StillpointCore

/// A query generation of a PostgreSQL store: a `REPEATABLE READ, READ ONLY` transaction held open on a connection
/// taken from the readers' pool, whose snapshot every read through it shares.
///
/// Each read runs inside a savepoint, so that a statement that fails or is cancelled does not abort the held
/// transaction. Releasing it rolls the transaction back and gives the connection back to the pool. A held
/// snapshot keeps `VACUUM` from removing the row versions it can still see, so a generation is for a while, not
/// for good.
///
/// ```swift
/// let generation = try store.holdGeneration()
/// let count = try generation.reading(interruptedBy: nil) { reader in try reader.count(request) }
/// generation.release()
/// ```
final class PostgresGeneration: StoreGeneration {
    private let store: PostgresStore
    private let connection: LockedState<PostgresConnection?>
    /// The server process of the held connection, for tests that look for its transaction.
    package let backendPID: Int64

    /// Begins the transaction on `connection` and takes its snapshot.
    init(store: PostgresStore, connection: PostgresConnection) throws(PostgresError) {
        try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        // The snapshot is taken by the transaction's first statement, not by BEGIN.
        let result = try connection.execute("SELECT pg_backend_pid()")
        self.store = store
        self.connection = LockedState(connection)
        self.backendPID = result.integer(row: 0, column: 0) ?? 0
    }

    deinit {
        release()
    }

    func reading<T>(interruptedBy flag: InterruptFlag?, _ body: (any StoreReader) throws -> T) throws -> T {
        // The context reads one statement at a time: the lock is only ever waited for by a release from elsewhere.
        try connection.withLock { held in
            guard let connection = held else {
                throw StoreError.server(path: store.location.displayPath, code: nil, message: "the query generation was released")
            }
            return try store.watching(connection, flag) {
                try connection.execute("SAVEPOINT stillpoint_read")
                do {
                    let value = try body(PostgresStoreConnection(connection))
                    try connection.execute("RELEASE SAVEPOINT stillpoint_read")
                    return value
                } catch {
                    _ = try? connection.execute("ROLLBACK TO SAVEPOINT stillpoint_read")
                    throw error
                }
            }
        }
    }

    func release() {
        guard let connection = connection.withLock({ $0.take() }) else { return }
        _ = try? connection.execute("ROLLBACK")
        if connection.isHealthy { store.checkIn(connection) }
    }
}
