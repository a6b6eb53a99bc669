/// A store as the object graph, contexts and operations see it: transactions that hand out a ``StoreReader``
/// or a ``StoreWriter``, which speak in rows and change sets. Each database has one implementation (SQLite's
/// is ``Store``); nothing above the seam writes SQL or knows which database it talks to.
///
/// ```swift
/// let count = try store.reading(interruptedBy: flag) { reader in try reader.count(request) }
/// let outcome = try store.writing(interruptedBy: flag) { writer in try writer.save(transaction, hub: hub) }
/// ```
package protocol StoreDriver: AnyObject, Sendable {
    /// How the store's database spells SQL.
    var dialect: SQLDialect { get }

    /// Runs `body` in a read transaction that sees one consistent state of the store; a statement stops with a
    /// `CancellationError` once `flag` is set.
    func reading<T>(interruptedBy flag: InterruptFlag?, _ body: (any StoreReader) throws -> T) throws -> T

    /// Runs `body` in one write transaction: all of it is saved, or none of it.
    func writing<T>(interruptedBy flag: InterruptFlag?, _ body: (any StoreWriter) throws -> T) throws -> T

    /// ``writing(interruptedBy:_:)`` without blocking the caller's thread.
    func writingAsync<T: Sendable>(interruptedBy flag: InterruptFlag?,
                                   _ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T
}
