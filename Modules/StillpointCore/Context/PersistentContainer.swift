import Foundation

/// A schema and a store, and the contexts that work on them.
///
/// ```swift
/// let container = try PersistentContainer(schema: try Schema([Item.self]), location: .file(url))
/// try await container.performBackgroundTask { context in
///     let item = context.insert(Item.self)
///     item[Item.uid] = 1
///     try await context.save()
/// }
/// let count = try await container.viewContext.perform { try $0.count(for: FetchRequest(Item.self)) }
/// ```
public final class PersistentContainer: Sendable {
    public let schema: Schema
    public let location: StoreLocation
    /// The context of the main actor, for reading what is shown. Its saves write off the main actor.
    public let viewContext: ObjectContext
    let store: Store
    let hub: ChangeSetHub
    let mergeTracker: MergeTracker
    private let contextCounter = LockedState(0)

    /// Opens the store, creating it or upgrading its tables to `schema` as needed.
    ///
    /// - Throws: ``StoreError`` with the path when the store cannot be opened or upgraded in place.
    public init(schema: Schema, location: StoreLocation) throws {
        self.schema = schema
        self.location = location
        self.store = try Store(location: location, schema: schema)
        let hub = ChangeSetHub()
        let mergeTracker = MergeTracker()
        self.hub = hub
        self.mergeTracker = mergeTracker
        self.viewContext = ObjectContext(name: "view", store: store, hub: hub, mergeTracker: mergeTracker, onMainActor: true)
    }

    deinit {
        hub.finish()
    }

    /// A new private context on the store, with a serial executor of its own.
    public func newBackgroundContext(name: String? = nil) -> ObjectContext {
        let number = contextCounter.withLock { counter in
            counter += 1
            return counter
        }
        return ObjectContext(name: name ?? "background-\(number)", store: store, hub: hub, mergeTracker: mergeTracker, onMainActor: false)
    }

    /// Runs `body` in a new background context.
    public func performBackgroundTask<T: Sendable>(
        _ body: @Sendable (isolated ObjectContext) async throws -> T
    ) async rethrows -> T {
        try await newBackgroundContext().perform(body)
    }

    /// Closes the store: its write-ahead log is folded into the file, which can then be moved or copied alone.
    /// Contexts of the container must not be used afterwards.
    public func close() throws {
        hub.finish()
        try store.close()
    }

    /// Every change set saved to the store through this container from now on, in commit order.
    ///
    /// With ``observeOtherProcesses(every:)`` running, other processes' change sets come too, in their commit
    /// order, as the watcher finds them: possibly after later ones of this process. A merge re-reads the rows it
    /// refreshes, so a context never goes back to an older state for it.
    public var changeSets: AsyncStream<ChangeSet> { hub.subscribe() }
}
