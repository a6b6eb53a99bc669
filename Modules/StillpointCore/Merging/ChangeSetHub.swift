import Foundation

/// Hands every change set of a store to any number of observers, in the order the saves committed.
final class ChangeSetHub: Sendable {
    private let state = LockedState<[UUID: AsyncStream<ChangeSet>.Continuation]>([:])

    /// A new stream that receives every change set published from now on.
    func subscribe() -> AsyncStream<ChangeSet> {
        let (stream, continuation) = AsyncStream<ChangeSet>.makeStream(bufferingPolicy: .unbounded)
        let key = UUID()
        state.withLock { $0[key] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.removeValue(forKey: key) }
        }
        return stream
    }

    func publish(_ changeSet: ChangeSet) {
        for continuation in state.withLock({ Array($0.values) }) {
            continuation.yield(changeSet)
        }
    }

    func finish() {
        for continuation in state.withLock({ Array($0.values) }) {
            continuation.finish()
        }
    }
}
