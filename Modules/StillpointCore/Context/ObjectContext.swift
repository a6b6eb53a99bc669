import Foundation

/// An isolation domain for managed objects, with its own executor: the view context runs on the main actor,
/// each background context on a serial queue of its own.
///
/// Objects live in one context; the compiler keeps them there, since ``ManagedObject`` is not `Sendable`.
/// Work happens in ``perform(_:)``:
///
/// ```swift
/// let background = container.newBackgroundContext()
/// let count = try await background.perform { context in
///     let item = context.insert(Item.self)
///     item[Item.uid] = 1
///     try await context.save()
///     return try context.count(for: FetchRequest(Item.self))
/// }
/// ```
public actor ObjectContext {
    /// A name for logs and change sets.
    public nonisolated let name: String
    /// The context a child's saves go to, or `nil` for a context on the store.
    public nonisolated let parent: ObjectContext?
    nonisolated let store: any StoreDriver
    nonisolated let hub: ChangeSetHub
    private nonisolated let queueExecutor: ContextQueueExecutor?
    nonisolated let interruptFlag = InterruptFlag()
    nonisolated let mergeTracker: MergeTracker
    /// What this context tells its children that merge automatically.
    nonisolated let childEvents = Broadcaster<ParentEvent>()
    /// The task that merges incoming changes, while ``automaticallyMergesChangesFromParent`` is on.
    var mergeTask: Task<Void, Never>?
    /// The error of the latest automatic merge that failed, if any. A merge whose read failed is tried again by
    /// itself, for up to a minute, before its change set is passed over.
    public internal(set) var lastMergeError: (any Error)?
    /// Change sets whose automatic merge was interrupted or failed, merged again before the next one.
    var unmergedChangeSets: [ChangeSet] = []
    /// The retry of the first of ``unmergedChangeSets`` after its read failed, if one is pending.
    var mergeRetry: MergeRetry?
    /// Owned by ``graphCustody``, which outlives the context to free it on the context's queue.
    unowned(unsafe) let graph: ObjectGraph
    /// The part of the store the context sees (``FetchScope``): set on every request it runs that has none of its
    /// own, and checked when an object is read by its ID.
    public private(set) var scope: FetchScope?
    /// Frees the graph on the context's queue after the context is gone.
    private nonisolated let graphCustody: GraphCustody
    /// The change set of the latest save to the store, so that an operation that saved can wait for its merge.
    var lastSavedChangeSet: ChangeSet?
    /// Whether a save is under way, and the saves waiting for it: a save that suspends (the view context's, a
    /// child's) must not let a second one send the same changes again.
    var isSaving = false
    var savesWaiting: [CheckedContinuation<Void, Never>] = []

    init(name: String, store: any StoreDriver, hub: ChangeSetHub, mergeTracker: MergeTracker, onMainActor: Bool,
         parent: ObjectContext? = nil, parentSnapshot: ParentSnapshot? = nil, scope: FetchScope? = nil) {
        self.name = name
        self.scope = scope
        self.mergeTracker = mergeTracker
        self.parent = parent
        self.store = store
        self.hub = hub
        self.queueExecutor = onMainActor ? nil : ContextQueueExecutor(label: "stillpoint.context.\(name)")
        let graph = ObjectGraph(store: store, hub: hub, name: name, interruptFlag: interruptFlag, parentSnapshot: parentSnapshot)
        self.graph = graph
        self.graphCustody = GraphCustody(graph)
    }

    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        queueExecutor?.asUnownedSerialExecutor() ?? MainActor.sharedUnownedExecutor
    }

    /// Whether the context runs on the main actor.
    public nonisolated var isViewContext: Bool { queueExecutor == nil }

    // MARK: Performing work

    /// Runs `body` on the context's executor, with the context isolated, and returns its Sendable result.
    ///
    /// ```swift
    /// let titles = try await context.perform { context in
    ///     try context.fetch(FetchRequest(Item.self)).map { $0[Item.title] }
    /// }
    /// ```
    public func perform<T: Sendable>(_ body: @Sendable (isolated ObjectContext) async throws -> T) async rethrows -> T {
        try await body(self)
    }

    /// Runs `body` synchronously on the context's executor and waits for it.
    ///
    /// Safe from the main actor: a background context never waits for the main actor, so this cannot deadlock
    /// it. Calling it from inside the same context runs `body` at once.
    ///
    /// - Precondition: the context is a background context, or the caller is on the main actor.
    public nonisolated func performAndWait<T: Sendable>(_ body: (isolated ObjectContext) throws -> T) rethrows -> T {
        guard let queueExecutor else {
            return try assumeIsolated(body)  // traps unless called on the main actor
        }
        if queueExecutor.isCurrent { return try assumeIsolated(body) }
        return try queueExecutor.queue.sync { try assumeIsolated(body) }
    }

    // MARK: Interrupting

    /// Stops the context's SQLite work: the statement running now and every one after it fail with
    /// `CancellationError`, until ``clearInterrupt()``. Callable from any thread, at any time.
    ///
    /// ```swift
    /// let scan = Task { try await context.perform { try $0.fetchDictionaries(hugeAggregate) } }
    /// context.interrupt()   // the aggregate stops at once
    /// ```
    public nonisolated func interrupt() { interruptFlag.set() }

    /// Lets the context run SQLite work again after ``interrupt()``.
    public nonisolated func clearInterrupt() { interruptFlag.clear() }

    /// Whether ``interrupt()`` was called and not cleared.
    public nonisolated var isInterrupted: Bool { interruptFlag.isSet }

    // MARK: Objects

    /// Inserts a new object of an entity; it is saved by the next ``save()``.
    public func insert<E: Entity>(_ entityType: E.Type) -> ManagedObject {
        graph.insert(E.entity)
    }

    /// Inserts a new object of the entity named `name`.
    public func insert(entityNamed name: String) throws -> ManagedObject {
        graph.insert(try store.schema.entity(named: name))
    }

    /// Marks an object deleted; the next ``save()`` deletes its row.
    public func delete(_ object: ManagedObject) throws {
        try graph.delete(object)
    }

    /// The object with `id` in this context: the registered instance, or one read from the store.
    public func existingObject(with id: ObjectID) throws -> ManagedObject {
        let object = try graph.existingObject(with: id)
        // An object outside the scope is not there for this context, as a fetch would not find it.
        if let scope, let rowID = id.rowID, let restriction = scope.restriction(for: object.entity) {
            let request = FetchRequest(object.entity, predicate: try FetchPredicate("_id == %@", rowID) && restriction)
            guard try graph.count(request) == 1 else { throw ContextError.objectNotFound(id) }
        }
        return object
    }

    /// Makes the context see only the part of the store `scope` selects (``FetchScope``), or all of it (`nil`).
    ///
    /// ```swift
    /// await context.setScope(try FetchScope(Practitioner.self, try FetchPredicate("id == %@", "alice")))
    /// ```
    public func setScope(_ scope: FetchScope?) {
        self.scope = scope
    }

    /// The object with `id` if this context holds it, without reading the store.
    public func registeredObject(for id: ObjectID) -> ManagedObject? {
        graph.object(for: id)
    }

    public var insertedObjects: [ManagedObject] { graph.inserted.objects }
    public var updatedObjects: [ManagedObject] { graph.updated.objects.filter(\.hasChangedValues) }
    public var deletedObjects: [ManagedObject] { graph.deleted.objects }
    public var registeredObjects: [ManagedObject] { graph.registeredObjects }

    /// Whether the context has unsaved inserts, changes or deletes.
    public var hasChanges: Bool { graph.hasChanges }

    /// Discards every unsaved change.
    public func rollback() { graph.rollback() }

    /// Forgets every object, saved or not.
    public func reset() { graph.reset() }

    /// Re-reads an object; with `mergeChanges`, its unsaved changes stay on top of the stored values.
    public func refresh(_ object: ManagedObject, mergeChanges: Bool) throws {
        guard object.graph === graph else { throw ContextError.foreignObject(object.objectID) }
        try graph.refresh(object, mergeChanges: mergeChanges)
    }

    // MARK: Merge policy

    /// The policy for conflicts at save, for every entity without a policy of its own. The default is `.error`.
    public var mergePolicy: MergePolicy { graph.mergePolicy }

    public func setMergePolicy(_ policy: MergePolicy) { graph.mergePolicy = policy }

    /// A policy for one entity, taking precedence over ``mergePolicy``.
    public func setMergePolicy(_ policy: MergePolicy, for entity: EntityDescription) {
        graph.entityMergePolicies[entity.name] = policy
    }

    // MARK: Child contexts

    /// A new private context whose saves go to this context, not to the store.
    ///
    /// The child sees this context's unsaved changes as they are now.
    ///
    /// With `onMainActor`, the child runs on the main actor: the view context of the root-writer topology.
    public func newChildContext(name: String? = nil, onMainActor: Bool = false) -> ObjectContext {
        ObjectContext(name: name ?? "\(self.name).child", store: store, hub: hub, mergeTracker: mergeTracker,
                      onMainActor: onMainActor, parent: self, parentSnapshot: graph.snapshotForChild(), scope: scope)
    }

    /// Takes a child's saved changes in as unsaved changes of this context.
    func absorb(_ changes: ChildChanges) throws {
        try graph.absorb(changes)
        childEvents.publish(.absorbed(changes))
    }

    deinit {
        mergeTask?.cancel()
        mergeRetry?.task?.cancel()
        let tracker = mergeTracker
        let identity = ObjectIdentifier(self)
        Task { await tracker.unregister(identity) }
        if let queueExecutor { graphCustody.release(on: queueExecutor.queue) }
    }
}
