import Foundation

/// Hands every element it is given to any number of subscribers, each on an unbounded stream of its own.
final class Broadcaster<Element: Sendable>: Sendable {
    private let continuations = LockedState<[UUID: AsyncStream<Element>.Continuation]>([:])

    /// A new stream that receives every element published from now on.
    func subscribe() -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .unbounded)
        let key = UUID()
        continuations.withLock { $0[key] = continuation }
        continuation.onTermination = { [weak self] _ in
            self?.continuations.withLock { _ = $0.removeValue(forKey: key) }
        }
        return stream
    }

    /// Whether anyone listens, so that publishers can skip building what nobody reads.
    var hasSubscribers: Bool { continuations.withLock { !$0.isEmpty } }

    func publish(_ element: Element) {
        for continuation in continuations.withLock({ Array($0.values) }) {
            continuation.yield(element)
        }
    }

    func finish() {
        for continuation in continuations.withLock({ Array($0.values) }) {
            continuation.finish()
        }
    }
}
