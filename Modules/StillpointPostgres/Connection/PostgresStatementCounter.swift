import StillpointCore

/// Counts the statements a store's connections send to the server (each one a round trip), so that a test can pin
/// down what a read costs: a practitioner's cold report, for one, is a few statements whatever their sessions.
///
/// ```swift
/// let store = try PostgresStore(uri: uri, schema: schema)
/// let before = store.statements.count
/// _ = try store.reading(interruptedBy: nil) { reader in try reader.count(request) }
/// print(store.statements.count - before)   // 3: BEGIN, the count, COMMIT
/// ```
package final class PostgresStatementCounter: Sendable {
    private let sent = LockedState(0)

    package init() {}

    /// The statements sent so far.
    package var count: Int { sent.withLock { $0 } }

    func add() {
        sent.withLock { $0 += 1 }
    }
}
