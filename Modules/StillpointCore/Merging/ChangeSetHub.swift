/// The change sets of one store as this process publishes them, for every observer.
///
/// Each change set gets a publication number, in the order it was published: the order contexts merge in,
/// which is commit order for this process's saves. Waiting for merges compares publication numbers, not
/// store sequence numbers: a PostgreSQL change set's sequence number is handed out before its transaction
/// commits, so another process's change set may come with a lower one after a higher one.
package final class ChangeSetHub: Sendable {
    private struct Publications {
        var lastSequence: Int64 = 0
        var count: Int64 = 0
        /// Recent change sets' publication numbers by sequence number; older ones have long been merged.
        var numbers: [Int64: Int64] = [:]
    }

    private let broadcaster = Broadcaster<ChangeSet>()
    private let publications = LockedState(Publications())
    /// How many publication numbers are remembered.
    private static let remembered: Int64 = 1 << 16

    func subscribe() -> AsyncStream<ChangeSet> { broadcaster.subscribe() }

    /// The largest sequence number published.
    var lastSequence: Int64 { publications.withLock { $0.lastSequence } }

    /// How many change sets were published: the publication number of the latest.
    var lastPublication: Int64 { publications.withLock { $0.count } }

    /// The publication number of a change set published here; 0 for one too old to be remembered (or never
    /// published), which every context has merged.
    func publication(of changeSet: ChangeSet) -> Int64 {
        publications.withLock { $0.numbers[changeSet.sequence] ?? 0 }
    }

    package func publish(_ changeSet: ChangeSet) {
        publications.withLock { state in
            state.lastSequence = max(state.lastSequence, changeSet.sequence)
            state.count += 1
            state.numbers[changeSet.sequence] = state.count
            if state.numbers.count > Self.remembered * 2 {
                let oldest = state.count - Self.remembered
                state.numbers = state.numbers.filter { $0.value > oldest }
            }
        }
        broadcaster.publish(changeSet)
    }

    func finish() { broadcaster.finish() }
}
