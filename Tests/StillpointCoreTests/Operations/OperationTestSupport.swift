import Foundation
import Synchronization
import Testing
@testable import StillpointCore
@testable import StillpointSQLite

/// A list that operations append to from their contexts and tests read afterwards.
final class Recorder<Element: Sendable>: Sendable {
    private let elements = LockedState<[Element]>([])

    func append(_ element: Element) {
        elements.withLock { $0.append(element) }
    }

    var all: [Element] {
        elements.withLock { $0 }
    }
}

/// Counts operations running at once and remembers the most there ever were.
final class ConcurrencyGauge: Sendable {
    private let state = LockedState<(current: Int, peak: Int)>((0, 0))

    func enter() {
        state.withLock { state in
            state.current += 1
            state.peak = max(state.peak, state.current)
        }
    }

    func leave() {
        state.withLock { $0.current -= 1 }
    }

    var current: Int { state.withLock { $0.current } }
    var peak: Int { state.withLock { $0.peak } }
}

/// A gate that work waits at (on its own thread) until a test opens it.
final class Gate: Sendable {
    private let isOpen = Atomic<Bool>(false)

    func open() { isOpen.store(true, ordering: .releasing) }

    /// Blocks the calling thread until the gate opens, for at most `limit`, so a broken test cannot hang. The
    /// limit allows for a loaded machine (the thread sanitizer, tests in parallel): a gate that gives way before
    /// its test opens it lets the work run past the point the test means to see.
    func wait(limit: Duration = .seconds(300)) {
        let deadline = ContinuousClock.now + limit
        while !isOpen.load(ordering: .acquiring), ContinuousClock.now < deadline {
            usleep(200)
        }
    }
}

struct TestFailure: Error, Equatable {
    let message: String
}

extension ContextOperationEvent {
    /// Whether the operation ended with this event.
    var isEnd: Bool {
        switch kind {
        case .finished, .failed, .cancelled: return true
        default: return false
        }
    }

    /// `identifier kind`, for comparing orders.
    var trace: String { "\(identifier) \(kindName)" }

    var cancellationReason: OperationCancellationReason? {
        if case .cancelled(let reason) = kind { return reason }
        return nil
    }
}

/// Reads events until `count` operations have ended.
func readEvents(_ iterator: inout AsyncStream<ContextOperationEvent>.Iterator, untilEnded count: Int) async -> [ContextOperationEvent] {
    var events: [ContextOperationEvent] = []
    var ended = 0
    while ended < count, let event = await iterator.next() {
        events.append(event)
        if event.isEnd { ended += 1 }
    }
    return events
}

/// Reads events until one matches `predicate`, and returns it.
func readEvents(_ iterator: inout AsyncStream<ContextOperationEvent>.Iterator,
                until predicate: @Sendable (ContextOperationEvent) -> Bool) async -> ContextOperationEvent? {
    while let event = await iterator.next() {
        if predicate(event) { return event }
    }
    return nil
}

/// Inserts `count` rows into `Row3` with one SQL statement (which SQLite and PostgreSQL both run): far faster
/// than objects, for large tables.
func insertRows(_ count: Int, in container: PersistentContainer) throws {
    try container.executeSQL("""
        WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < \(count))
        INSERT INTO "Row3" ("a", "b", "c") SELECT x, x % 7, x % 13 FROM n
        """)
}

/// Whether `operation` ends within `limit`: a test of "stops quickly" that fails, rather than hangs, when it
/// does not.
func ends(_ operation: AnyContextOperation, within limit: Duration) async -> Bool {
    /// Resumes the waiting test once, with whichever answer comes first.
    final class Answer: Sendable {
        private let continuation = LockedState<CheckedContinuation<Bool, Never>?>(nil)

        func wait(_ continuation: CheckedContinuation<Bool, Never>) {
            self.continuation.withLock { $0 = continuation }
        }

        func resume(_ value: Bool) {
            continuation.withLock { continuation in
                continuation?.resume(returning: value)
                continuation = nil
            }
        }
    }
    let answer = Answer()
    return await withCheckedContinuation { continuation in
        answer.wait(continuation)
        Task {
            await operation.waitUntilFinished()
            answer.resume(true)
        }
        Task {
            try? await Task.sleep(for: limit)
            answer.resume(false)
        }
    }
}
