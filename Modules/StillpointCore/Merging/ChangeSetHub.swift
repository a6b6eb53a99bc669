/// The change sets of one store, in commit order, for every observer; remembers the latest sequence number.
package final class ChangeSetHub: Sendable {
    private let broadcaster = Broadcaster<ChangeSet>()
    private let latest = LockedState<Int64>(0)

    func subscribe() -> AsyncStream<ChangeSet> { broadcaster.subscribe() }

    /// The sequence number of the latest change set published.
    var lastSequence: Int64 { latest.withLock { $0 } }

    func publish(_ changeSet: ChangeSet) {
        latest.withLock { $0 = max($0, changeSet.sequence) }
        broadcaster.publish(changeSet)
    }

    func finish() { broadcaster.finish() }
}
