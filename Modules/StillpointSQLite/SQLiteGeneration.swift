import GRDB
import GRDBSQLite
import StillpointCore

/// A query generation of a SQLite store: a read transaction held open on a connection of its own (GRDB's
/// `DatabaseSnapshot`), which in WAL mode sees the store as it was when the transaction began.
///
/// While it is held, checkpoints cannot copy the frames written after it back into the database, so the WAL
/// grows by what is written meanwhile (checkpoint starvation); releasing it lets the next checkpoint catch up.
///
/// ```swift
/// let generation = try store.holdGeneration()
/// let count = try generation.reading(interruptedBy: nil) { reader in try reader.count(request) }
/// generation.release()
/// ```
final class SQLiteGeneration: StoreGeneration {
    private let snapshot: LockedState<DatabaseSnapshot?>
    private let path: String
    /// Called once the generation is released, so that the store stops tracking it.
    private let onRelease: @Sendable (SQLiteGeneration) -> Void

    init(_ snapshot: DatabaseSnapshot, path: String, onRelease: @escaping @Sendable (SQLiteGeneration) -> Void) {
        self.snapshot = LockedState(snapshot)
        self.path = path
        self.onRelease = onRelease
    }

    deinit {
        release()
    }

    func reading<T>(interruptedBy flag: InterruptFlag?, _ body: (any StoreReader) throws -> T) throws -> T {
        guard let snapshot = snapshot.withLock({ $0 }) else {
            throw StoreError.sqlite(path: path, code: SQLITE_MISUSE, message: "the query generation was released")
        }
        do {
            return try snapshot.read { db in
                guard let flag else { return try body(SQLiteStoreConnection(db: db)) }
                return try flag.watching(db) { try body(SQLiteStoreConnection(db: db)) }
            }
        } catch {
            throw StoreError.translating(error, path: path)
        }
    }

    func release() {
        // Dropping the snapshot ends its transaction and closes its connection.
        guard snapshot.withLock({ snapshot in snapshot.take() }) != nil else { return }
        onRelease(self)
    }
}
