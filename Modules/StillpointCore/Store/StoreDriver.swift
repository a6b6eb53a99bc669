/// A store as the object graph, contexts and operations see it: transactions that hand out a ``StoreReader``
/// or a ``StoreWriter``, which speak in rows and change sets. Each database has one implementation (SQLite's
/// is ``Store``, PostgreSQL's `PostgresStore`); nothing above the seam writes SQL or knows which database it
/// talks to.
///
/// ```swift
/// let count = try store.reading(interruptedBy: flag) { reader in try reader.count(request) }
/// let outcome = try store.writing(interruptedBy: flag) { writer in try writer.save(transaction, hub: hub) }
/// ```
package protocol StoreDriver: AnyObject, Sendable {
    /// Where the store is, as messages name it.
    var location: StoreLocation { get }
    /// The schema the store's tables were made or upgraded for.
    var schema: Schema { get }
    var access: StoreAccess { get }
    /// Tells this open's change-log entries from those of other processes (and other opens).
    var processToken: String { get }

    /// Runs `body` in a read transaction that sees one consistent state of the store; a statement stops with a
    /// `CancellationError` once `flag` is set.
    func reading<T>(interruptedBy flag: InterruptFlag?, _ body: (any StoreReader) throws -> T) throws -> T

    /// Takes the store's state now and holds it for later reads (``StoreGeneration``), until released.
    ///
    /// - Throws: ``ContextError/queryGenerationUnavailable(store:)`` for a store that cannot hold a read open
    ///   without holding back its writes (SQLite in memory).
    func holdGeneration() throws -> any StoreGeneration

    /// Runs `body` in one write transaction: all of it is saved, or none of it.
    func writing<T>(interruptedBy flag: InterruptFlag?, _ body: (any StoreWriter) throws -> T) throws -> T

    /// ``writing(interruptedBy:_:)`` without blocking the caller's thread.
    func writingAsync<T: Sendable>(interruptedBy flag: InterruptFlag?,
                                   _ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T

    /// A signal each time another process may have committed, at most every `interval` (a store that has a
    /// doorbell rings at once and needs no polling). Ends when the store closes or the consumer stops.
    func otherProcessCommits(every interval: Duration) -> AsyncStream<Void>

    /// The store's format version (``StoreFormat``): 0 for a store made before versions were recorded.
    func formatVersion() throws -> Int

    /// The store's own consistency check: `[]` when it is sound, else at most `limit` lines of damage.
    func integrityProblems(limit: Int) throws -> [String]

    /// Closes the store's connections; later use fails.
    func close() throws
}
