import StillpointCore

/// Counts the statements a store's connections send to the server and the round trips they wait for, so that a
/// test can pin down what a read costs: a practitioner's cold report, for one, is a few statements whatever their
/// sessions. A read transaction's `BEGIN` goes with its first statement and its `COMMIT` is not waited for
/// (``PostgresConnection/readTransaction(_:_:)``): both are statements, neither a round trip of its own.
///
/// ```swift
/// let store = try PostgresStore(uri: uri, schema: schema)
/// _ = try store.reading(interruptedBy: nil) { reader in try reader.count(request) }
/// print(store.statements.count, store.statements.roundTrips)   // 3 1: BEGIN and the count together, COMMIT
/// ```
package final class PostgresStatementCounter: Sendable {
    private let sent = LockedState((statements: 0, roundTrips: 0, preparations: 0))

    package init() {}

    /// The statements sent so far.
    package var count: Int { sent.withLock { $0.statements } }

    /// The times a statement (or a pipeline of them) was sent and its answer waited for.
    package var roundTrips: Int { sent.withLock { $0.roundTrips } }

    /// The statements prepared on the server (``PostgresConnection/executePrepared(_:_:)``), each once per connection;
    /// a preparation goes with the statement's first run and is neither a statement nor a round trip of its own.
    package var preparations: Int { sent.withLock { $0.preparations } }

    /// Counts a statement's preparation.
    func addPreparation() {
        sent.withLock { $0.preparations += 1 }
    }

    /// Counts a statement; `roundTrip`: the one whose answer is waited for.
    func add(roundTrip: Bool) {
        sent.withLock {
            $0.statements += 1
            if roundTrip { $0.roundTrips += 1 }
        }
    }
}
