import Synchronization

/// A flag that stops every statement run for one context once it is set.
///
/// SQLite calls a progress handler every few hundred virtual-machine steps; while the flag is set the handler
/// asks SQLite to interrupt, and the statement fails with `SQLITE_INTERRUPT`, which surfaces as a
/// `CancellationError`. This is how cancelling an operation stops a long aggregate at once. A server store
/// registers what stops its running statement instead (``whileWatched(cancelling:_:)``).
package final class InterruptFlag: Sendable {
    private let state = Atomic<Bool>(false)
    /// What stops the statements running now on a server store (one per transaction in progress), called when
    /// the flag is set.
    private let stopRunning = LockedState<(next: UInt64, cancels: [UInt64: @Sendable () -> Void])>((0, [:]))

    package var isSet: Bool { state.load(ordering: .relaxed) }

    func set() {
        state.store(true, ordering: .relaxed)
        for cancel in stopRunning.withLock({ Array($0.cancels.values) }) { cancel() }
    }

    func clear() { state.store(false, ordering: .relaxed) }

    /// Runs `body` with `cancel` called if the flag is set while it runs; throws `CancellationError` at once
    /// when the flag is already set.
    package func whileWatched<T>(cancelling cancel: @escaping @Sendable () -> Void, _ body: () throws -> T) throws -> T {
        if isSet { throw CancellationError() }
        let key = stopRunning.withLock { state in
            state.next += 1
            state.cancels[state.next] = cancel
            return state.next
        }
        defer { _ = stopRunning.withLock { $0.cancels.removeValue(forKey: key) } }
        // Set between the check and the registration: nothing would have called `cancel`.
        if isSet { throw CancellationError() }
        return try body()
    }
}
