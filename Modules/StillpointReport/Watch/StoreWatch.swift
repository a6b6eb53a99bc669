import Foundation
import StillpointCore

/// The changes saved to a store, by this process or, through its change log, by another one (an import in a
/// second terminal), from the moment it is made until ``stop()``, or until the store is replaced under it
/// (``wasReplaced``).
///
/// Make it before the first report runs: a change saved while that report runs then still comes.
///
/// ```swift
/// let watch = StoreWatch(container)
/// let report = await runner.run(entries, environment: environment)
/// for await changeSet in watch.changes { print(changeSet.entityNames) }   // until watch.stop()
/// ```
public final class StoreWatch: Sendable {
    /// The change sets, in the order they were saved; ends at ``stop()`` or ``markReplaced()``.
    public let changes: AsyncStream<ChangeSet>
    private let continuation: AsyncStream<ChangeSet>.Continuation
    private let replaced = LockedState(false)

    /// Watches `container`'s store, asking its change log for other processes' changes every `interval`.
    public init(_ container: PersistentContainer, every interval: Duration = .milliseconds(300)) {
        (changes, continuation) = AsyncStream.makeStream(of: ChangeSet.self)
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
    public var wasReplaced: Bool { replaced.withLock { $0 } }

    /// The store was replaced under the watch (its store says so, such as PostgreSQL's listener does): ends
    /// ``changes`` and sets ``wasReplaced``.
    public func markReplaced() {
        replaced.withLock { $0 = true }
        continuation.finish()
    }

    /// Ends ``changes`` after the changes already waiting in it; safe from any thread.
    public func stop() {
        continuation.finish()
    }
}
