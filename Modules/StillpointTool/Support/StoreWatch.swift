import Foundation
import StillpointCore

/// The changes saved to a store, by this process or, through its change log, by another one (an import in a
/// second terminal), from the moment it is made until ``stop()``, or until the store is replaced under it
/// (``wasReplaced``).
///
/// Make it before the first report runs: a change saved while that report runs then still comes.
final class StoreWatch: Sendable {
    let changes: AsyncStream<ChangeSet>
    private let continuation: AsyncStream<ChangeSet>.Continuation
    private let replaced = LockedState(false)

    init(_ container: PersistentContainer, every interval: Duration = .milliseconds(300)) {
        (changes, continuation) = AsyncStream.makeStream(of: ChangeSet.self)
        ServerNotices.install(on: container) { [replaced, continuation] in
            replaced.withLock { $0 = true }
            continuation.finish()
        }
        // Subscribed before the poller starts, so that nothing it publishes is missed.
        let published = container.changeSets
        let poller = container.observeOtherProcesses(every: interval)
        let forwarder = Task { [continuation] in
            for await changeSet in published { continuation.yield(changeSet) }
        }
        continuation.onTermination = { _ in
            forwarder.cancel()
            poller.cancel()
        }
    }

    deinit {
        stop()
    }

    /// Whether the store was replaced while it was watched (a PostgreSQL database dropped and made again): the
    /// changes ended there, and none of the new store's came.
    var wasReplaced: Bool { replaced.withLock { $0 } }

    /// Ends ``changes`` after the changes already waiting in it; safe from any thread.
    func stop() {
        continuation.finish()
    }
}
