import Foundation
@testable import StillpointCore

/// A store that passes everything to a real one, but can hold back the answer of its next reads, as a slow read
/// (a busy server) would: for tests of who waits for the store.
///
/// ```swift
/// let store = ReadHoldingStore(base.store)
/// let container = PersistentContainer(store: store)
/// store.holdNextReads(1)
/// // ... a read is made: its answer waits until `release()` (or the watchdog, after `timeout`)
/// store.release()
/// ```
final class ReadHoldingStore: StoreDriver {
    private let base: any StoreDriver
    private let state = LockedState(HoldState())
    private let released = DispatchSemaphore(value: 0)
    /// A held read is let go after this long, so that a test that fails does not hang. Long, since a test checks
    /// that the main actor runs while a read is held, and in the whole suite under load the main actor can wait
    /// seconds for its turn (five were seen to pass).
    let timeout: Duration

    private struct HoldState {
        var readsToHold = 0
        var holding = 0
        var readsHeld = 0
        var isReleased = true
    }

    init(_ base: any StoreDriver, timeout: Duration = .seconds(60)) {
        self.base = base
        self.timeout = timeout
    }

    /// Holds the answers of the next `count` reads until ``release()``.
    func holdNextReads(_ count: Int) {
        state.withLock { state in
            state.readsToHold = count
            state.isReleased = false
        }
    }

    /// Lets the held reads answer.
    func release() {
        let holding = state.withLock { state in
            state.isReleased = true
            state.readsToHold = 0
            return state.holding
        }
        for _ in 0..<holding { released.signal() }
    }

    /// Whether reads are held now (``release()`` not called, nor the timeout reached).
    var isHolding: Bool { state.withLock { !$0.isReleased } }
    /// How many reads were held since the store was made.
    var readsHeld: Int { state.withLock { $0.readsHeld } }

    var location: StoreLocation { base.location }
    var schema: Schema { base.schema }
    var access: StoreAccess { base.access }
    var processToken: String { base.processToken }

    func reading<T>(interruptedBy flag: InterruptFlag?, _ body: (any StoreReader) throws -> T) throws -> T {
        let result = try base.reading(interruptedBy: flag, body)
        let holds = state.withLock { state in
            guard state.readsToHold > 0 else { return false }
            state.readsToHold -= 1
            state.readsHeld += 1
            state.holding += 1
            return true
        }
        if holds {
            let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
            if released.wait(timeout: .now() + .nanoseconds(Int(nanoseconds))) == .timedOut {
                state.withLock { $0.isReleased = true }
            }
            state.withLock { $0.holding -= 1 }
        }
        return result
    }

    func holdGeneration() throws -> any StoreGeneration { try base.holdGeneration() }

    func writing<T>(interruptedBy flag: InterruptFlag?, _ body: (any StoreWriter) throws -> T) throws -> T {
        try base.writing(interruptedBy: flag, body)
    }

    func writingAsync<T: Sendable>(interruptedBy flag: InterruptFlag?,
                                   _ body: @escaping @Sendable (any StoreWriter) throws -> T) async throws -> T {
        try await base.writingAsync(interruptedBy: flag, body)
    }

    func otherProcessCommits(every interval: Duration) -> AsyncStream<Void> { base.otherProcessCommits(every: interval) }
    func formatVersion() throws -> Int { try base.formatVersion() }
    func integrityProblems(limit: Int) throws -> [String] { try base.integrityProblems(limit: limit) }
    func close() throws { try base.close() }
}
