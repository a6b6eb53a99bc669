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

    /// A signal every `interval`, and, for a store file, each time a Stillpoint writer in any process commits
    /// (its ``StoreDoorbell``, by inotify): the doorbell brings a commit in milliseconds, and the polling stays
    /// for where it cannot ring (no inotify, a folder the writer cannot write).
    func otherProcessCommits(every interval: Duration) -> AsyncStream<Void> {
        let doorbell = location.fileURL.flatMap { StoreDoorbell.rings(for: $0) }
        return AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let ticker = Task {
                while !Task.isCancelled {
                    continuation.yield()
                    try? await Task.sleep(for: interval)
                }
                continuation.finish()
            }
            let ringer = Task {
                guard let doorbell else { return }
                for await _ in doorbell { continuation.yield() }
            }
            continuation.onTermination = { _ in
                ticker.cancel()
                ringer.cancel()
            }
        }
    }

    private static func watching<T>(_ flag: InterruptFlag?, on db: Database, _ body: () throws -> T) throws -> T {
        guard let flag else { return try body() }
        return try flag.watching(db, body)
    }
}
