/// One state of the store held open for a context pinned to it (``ObjectContext/pinQueryGeneration()``): every
/// read through it sees the store as it was when it was taken, whatever commits after. SQLite's holds a read
/// transaction open on a connection of its own (a WAL snapshot); PostgreSQL's a `REPEATABLE READ` transaction
/// on a connection taken from the readers' pool.
///
/// ```swift
/// let generation = try store.holdGeneration()
/// let count = try generation.reading(interruptedBy: flag) { reader in try reader.count(request) }
/// generation.release()   // the transaction ends, the connection is free again
/// ```
package protocol StoreGeneration: AnyObject, Sendable {
    /// Runs `body` in the held transaction; a statement stops with a `CancellationError` once `flag` is set.
    func reading<T>(interruptedBy flag: InterruptFlag?, _ body: (any StoreReader) throws -> T) throws -> T

    /// Ends the held transaction and gives its connection back. Called again, or dropped, it does nothing more.
    func release()
}
