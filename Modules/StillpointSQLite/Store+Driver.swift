import GRDB
import StillpointCore
import StillpointSQL

/// The SQLite store as the seam's driver: each transaction hands its body a ``SQLiteStoreConnection``, with the
/// context's interrupt flag watched through SQLite's progress handler.
extension Store: StoreDriver {
    var dialect: SQLDialect { .sqlite }

    func reading<T>(interruptedBy flag: InterruptFlag?, _ body: (any StoreReader) throws -> T) throws -> T {
        try read { db in try Self.watching(flag, on: db) { try body(SQLiteStoreConnection(db: db)) } }
    }

    func writing<T>(interruptedBy flag: InterruptFlag?, _ body: (any StoreWriter) throws -> T) throws -> T {
        try write { db in try Self.watching(flag, on: db) { try body(SQLiteStoreConnection(db: db)) } }
    }

    func writingAsync<T: Sendable>(interruptedBy flag: InterruptFlag?,
                                   _ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T {
        try await writeAsync { db in try Self.watching(flag, on: db) { try body(SQLiteStoreConnection(db: db)) } }
    }

    /// SQLite has no doorbell between processes: a signal every `interval`.
    func otherProcessCommits(every interval: Duration) -> AsyncStream<Void> {
        AsyncStream { continuation in
            let ticker = Task {
                while !Task.isCancelled {
                    continuation.yield()
                    try? await Task.sleep(for: interval)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in ticker.cancel() }
        }
    }

    private static func watching<T>(_ flag: InterruptFlag?, on db: Database, _ body: () throws -> T) throws -> T {
        guard let flag else { return try body() }
        return try flag.watching(db, body)
    }
}
