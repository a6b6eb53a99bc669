/// Hands each snapshot of one ``LiveResults`` to every sequence iterating it; a new sequence starts from the
/// latest snapshot, delivered as a first one (everything inserted), then follows.
final class LiveResultsBroadcast: Sendable {
    private struct State {
        var latest: LiveSnapshot
        var subscribers: [UInt64: AsyncStream<LiveSnapshot>.Continuation] = [:]
        var lastKey: UInt64 = 0
        var isFinished = false
    }

    private let state: LockedState<State>

    init(_ first: LiveSnapshot) {
        state = LockedState(State(latest: first))
    }

    var latest: LiveSnapshot { state.withLock { $0.latest } }

    func subscribe() -> AsyncStream<LiveSnapshot> {
        // Unbounded: each difference applies to the snapshot before it, so none may be dropped.
        let (stream, continuation) = AsyncStream.makeStream(of: LiveSnapshot.self, bufferingPolicy: .unbounded)
        let key = state.withLock { state -> UInt64? in
            continuation.yield(state.latest.asFirst())
            guard !state.isFinished else { return nil }
            state.lastKey += 1
            state.subscribers[state.lastKey] = continuation
            return state.lastKey
        }
        guard let key else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [state] _ in
            state.withLock { _ = $0.subscribers.removeValue(forKey: key) }
        }
        return stream
    }

    /// Publishes a snapshot; called on the context's executor only, so snapshots go out in order.
    func publish(_ snapshot: LiveSnapshot) {
        let subscribers = state.withLock { state in
            state.latest = snapshot
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.yield(snapshot) }
    }

    /// Ends every sequence after the snapshots already waiting in it.
    func finish() {
        let subscribers = state.withLock { state in
            state.isFinished = true
            defer { state.subscribers.removeAll() }
            return Array(state.subscribers.values)
        }
        for subscriber in subscribers { subscriber.finish() }
    }
}
