/// A fetch request's results kept current as its context takes changes in, delivered as an `AsyncSequence` of
/// ``LiveSnapshot``s: the counterpart of Core Data's `NSFetchedResultsController`.
///
/// The results follow the saved state as the context sees it: its own saves and batch operations, the changes
/// it merges by hand, and, with ``ObjectContext/automaticallyMergesChangesFromParent`` on, every other
/// context's saves and batch operations and, with ``PersistentContainer/observeOtherProcesses(every:)``, other
/// processes' commits. Each change costs a read of the changed rows that can be in the results (with a limit, at
/// most `limit` of them) and a binary search per row, not a fetch of the whole result.
///
/// ```swift
/// await container.viewContext.setAutomaticallyMergesChangesFromParent(true)
/// var request = FetchRequest(Session.self, sortedBy: [.descending(Session.start)])
/// request.limit = 20
/// let latest = try await container.viewContext.liveResults(for: request)
/// for await snapshot in latest {
///     show(snapshot.rows, animating: snapshot.difference)
/// }
/// ```
///
/// Iterating starts from the latest snapshot, delivered with every row inserted, then delivers each change;
/// several loops may iterate at once. The results stop following the context at ``stop()``, or when the last
/// reference to them (a loop's iterator holds one) goes.
public final class LiveResults: AsyncSequence, Sendable {
    public typealias Element = LiveSnapshot
    public typealias Failure = Never

    /// The request whose results these are.
    public let request: FetchRequest
    /// The attribute whose values divide the rows into sections, or `nil` for one section.
    public let sectionKey: String?
    /// The context whose changes the results follow.
    public let context: ObjectContext
    private let broadcast: LiveResultsBroadcast
    private let observer: UInt64

    init(request: FetchRequest, sectionKey: String?, context: ObjectContext, broadcast: LiveResultsBroadcast, observer: UInt64) {
        self.request = request
        self.sectionKey = sectionKey
        self.context = context
        self.broadcast = broadcast
        self.observer = observer
    }

    /// The latest snapshot, as its own difference says (every row inserted for the first).
    public var latest: LiveSnapshot { broadcast.latest }

    /// A sequence of the snapshots from the latest on: the same as iterating the results themselves.
    public var snapshots: AsyncStream<LiveSnapshot> { broadcast.subscribe() }

    /// Stops following the context: every sequence ends after the snapshots already waiting in it.
    public func stop() async {
        broadcast.finish()
        await context.removeChangeObserver(observer)
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(results: self, base: broadcast.subscribe().makeAsyncIterator())
    }

    /// Iterates the snapshots, and keeps the results alive while it does.
    public struct Iterator: AsyncIteratorProtocol {
        let results: LiveResults
        var base: AsyncStream<LiveSnapshot>.Iterator

        public mutating func next() async -> LiveSnapshot? {
            await base.next()
        }
    }

    deinit {
        broadcast.finish()
        let context = self.context
        let observer = self.observer
        Task { await context.removeChangeObserver(observer) }
    }
}
