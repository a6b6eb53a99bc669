import Foundation

/// A schema and a store, and the contexts that work on them. A store module opens it: `StillpointSQLite` for a
/// SQLite file or an in-memory store, `StillpointPostgres` for a PostgreSQL database.
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
    package let store: any StoreDriver
    let hub: ChangeSetHub
    let mergeTracker: MergeTracker
    private let contextCounter = LockedState(0)
    private let contextScope = LockedState<FetchScope?>(nil)

    /// A container over a store a driver opened (the seam's way in for each database's module).
    package init(store: any StoreDriver) {
        self.schema = store.schema
        self.location = store.location
        self.store = store
        let hub = ChangeSetHub()
        let mergeTracker = MergeTracker()
        self.hub = hub
        self.mergeTracker = mergeTracker
        self.viewContext = ObjectContext(name: "view", store: store, hub: hub, mergeTracker: mergeTracker, onMainActor: true)
    }

    deinit {
        hub.finish()
    }

    /// Whether the store was opened read-only: saves fail with ``StoreError/readOnly(path:)``.
    public var isReadOnly: Bool { store.access == .readOnly }

    /// The store format this Stillpoint writes and reads (newer ones are refused). 2: imports link every row they
    /// meet through many-to-many link tables (``ImportOperation/Link``), where a practice log kept one import run
    /// per session in a column; a release of format 1 would write that column and miss the links, so it must refuse
    /// a store of format 2.
    public static let storeFormatVersion = 2

    /// The store's format version: 0 for a store made before versions were recorded.
    public func storeVersion() throws -> Int {
        try store.formatVersion()
    }

    /// Checks the whole store (SQLite's full `PRAGMA integrity_check`; on PostgreSQL, that the store's tables are
    /// there): `[]` when it is sound, else the damage found, one line per problem (at most `limit`).
    public func integrityProblems(limit: Int = 100) throws -> [String] {
        try store.integrityProblems(limit: limit)
    }

    /// A new private context on the store, with a serial executor of its own.
    public func newBackgroundContext(name: String? = nil) -> ObjectContext {
        let number = contextCounter.withLock { counter in
            counter += 1
            return counter
        }
        return ObjectContext(name: name ?? "background-\(number)", store: store, hub: hub, mergeTracker: mergeTracker, onMainActor: false,
                             scope: contextScope.withLock { $0 })
    }

    /// The scope (``FetchScope``) of the view context and of every context made from now on: a program that
    /// serves one part of a store sets it once, and no context it makes can read past it.
    ///
    /// ```swift
    /// await container.setScope(try FetchScope(Practitioner.self, try FetchPredicate("_id == %@", alice)))
    /// ```
    public func setScope(_ scope: FetchScope?) async {
        contextScope.withLock { $0 = scope }
        await viewContext.setScope(scope)
    }

    /// The scope contexts made from now on start with (``setScope(_:)``).
    public var scope: FetchScope? { contextScope.withLock { $0 } }

    /// Runs `body` in a new background context.
    public func performBackgroundTask<T: Sendable>(
        _ body: @Sendable (isolated ObjectContext) async throws -> T
    ) async rethrows -> T {
        try await newBackgroundContext().perform(body)
    }

    /// Closes the store: a SQLite file's write-ahead log is folded into the file, which can then be moved or
    /// copied alone; a server store's connections are closed.
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
