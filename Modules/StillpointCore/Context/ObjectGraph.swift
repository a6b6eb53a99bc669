import Foundation

/// The state of one context: its identity map and its unsaved changes. Used only on its context's executor.
final class ObjectGraph {
    let store: any StoreDriver
    let hub: ChangeSetHub
    let name: String
    let interruptFlag: InterruptFlag
    /// The parent's unsaved state as this child context saw it, or `nil` for a context on the store.
    var parentSnapshot: ParentSnapshot?
    /// Marks this context's change sets, so that it does not merge its own saves.
    let origin: StoreOrigin
    var mergePolicy: MergePolicy = .error
    var entityMergePolicies: [String: MergePolicy] = [:]

    /// The identity map (one instance per object), but for inserted objects, which ``inserted`` finds by ID:
    /// keying them by temporary ID would cost a hash to insert each and another to re-key it at save.
    var registered = IdentityMap()
    var inserted = PendingObjects(.inserted)
    var updated = PendingObjects(.updated)
    var deleted = PendingObjects(.deleted)
    /// The read transaction in progress, so that code run inside a streaming fetch reads the same state.
    var activeReader: (any StoreReader)?
    /// The state of the store this context is pinned to (``ObjectContext/pinQueryGeneration()``), if any.
    var generation: (any StoreGeneration)?
    /// Pinned, but moved on by a save: the next read pins the state of the store then.
    var pinsAtNextRead = false
    /// Set while a merge reads: merged objects take the latest stored values even in a pinned context.
    var readsLatestState = false
    /// The last entity found to have no delete rule to apply: deleting many objects of it asks once.
    private var entityWithoutDeleteRules: ObjectIdentifier?
    /// The live results that follow the changes this context takes in.
    var changeObservers = ChangeObservers()
    /// Typed accesses with an attribute the object's entity does not have, which the next save refuses (the
    /// subscript cannot throw, and must not stop a server); kept until a rollback or reset.
    private(set) var attributeMisuses: [ValidationFailure] = []

    init(store: any StoreDriver, hub: ChangeSetHub, name: String, interruptFlag: InterruptFlag, parentSnapshot: ParentSnapshot?) {
        self.store = store
        self.interruptFlag = interruptFlag
        self.origin = StoreOrigin(process: store.processToken, context: ObjectGraph.nextOriginNumber())
        self.hub = hub
        self.name = name
        self.parentSnapshot = parentSnapshot
    }

    deinit {
        generation?.release()
    }

    private static let originCounter = LockedState<UInt64>(0)

    private static func nextOriginNumber() -> UInt64 {
        originCounter.withLock { counter in
            counter += 1
            return counter
        }
    }

    var hasChanges: Bool {
        !inserted.isEmpty || !deleted.isEmpty || updated.objects.contains(where: \.hasChangedValues)
    }

    func policy(for entity: EntityDescription) -> MergePolicy {
        entityMergePolicies[entity.name] ?? mergePolicy
    }

    // MARK: Registration

    func insert(_ entity: EntityDescription) -> ManagedObject {
        let object = ManagedObject(entity: entity, objectID: .temporary(entityName: entity.name), values: entity.initialValues,
                                   committedValues: nil, version: 0, graph: self)
        inserted.insert(object)
        return object
    }

    /// The object this context holds for `id`, without reading the store.
    func object(for id: ObjectID) -> ManagedObject? {
        if let object = registered[id] { return object }
        return id.isTemporary ? inserted.object(for: id) : nil
    }

    /// Marks an object deleted. Only an object this context holds can be: not another context's, nor one it
    /// forgot (its deletion saved, its row gone, or the context reset), whose row id may belong to a new row now.
    /// With `applyingRules`, the cascade and nullify rules of its relationships are applied at once.
    func delete(_ object: ManagedObject, applyingRules: Bool = true) throws {
        guard object.graph === self else { throw ContextError.foreignObject(object.objectID) }
        if inserted.remove(object) {
            object.isDeleted = true
        } else {
            // Fetched objects sit in the identity map's runs: this look-up hashes nothing for them.
            guard registered[object.objectID] === object else { throw ContextError.foreignObject(object.objectID) }
            updated.remove(object)
            deleted.insert(object)
            object.isDeleted = true
        }
        if applyingRules, hasDeleteRules(object.entity) {
            try applyDeleteRules(of: object)
        }
    }

    /// Whether deleting an object of `entity` may reach others: it has relationships, or to-ones without inverse
    /// reach it.
    private func hasDeleteRules(_ entity: EntityDescription) -> Bool {
        if entity.identity == entityWithoutDeleteRules { return false }
        let hasRules = !entity.relationships.isEmpty || !store.schema.unpairedReferences(to: entity.name).isEmpty
        if !hasRules { entityWithoutDeleteRules = entity.identity }
        return hasRules
    }

    /// Records a typed access to `object` with the attribute `name` that its entity lacks (or holds as another type).
    func recordMisuse(of name: String, on object: ManagedObject) {
        let failure = ValidationFailure(objectID: object.objectID, reason: .attributeOfAnotherEntity(attribute: name))
        if !attributeMisuses.contains(failure) { attributeMisuses.append(failure) }
    }

    /// Called by an object when one of its values changes.
    func didChange(_ object: ManagedObject) {
        guard object.committedValues != nil, !object.isDeleted else { return }
        updated.insert(object)
    }

    /// The registered object for `id`, or a new one made from stored values.
    func register(id: ObjectID, entity: EntityDescription, values: ContiguousArray<AttributeValue>, version: Int64) -> ManagedObject {
        if let object = object(for: id) {
            // A pinned context's fetch may read an older version than a merge brought in: the object keeps the newer.
            if !object.hasChanges, object.version != version, !(isPinned && version < object.version) {
                object.values = values
                object.committedValues = values
                object.version = version
            }
            return object
        }
        let object = ManagedObject(entity: entity, objectID: id, values: values, committedValues: values, version: version, graph: self)
        registered[id] = object
        return object
    }

    func unregister(_ object: ManagedObject) {
        if registered[object.objectID] === object { registered.removeValue(forKey: object.objectID) }
        inserted.remove(object)
        updated.remove(object)
        deleted.remove(object)
    }

    /// The objects of `entity` whose membership in a fetch can differ from what the store says.
    /// Read in place, without copying the sets: deleting many objects whose relationships are read through
    /// others' columns asks for these once per object.
    func pendingObjects(of entity: EntityDescription) -> [ManagedObject] {
        var objects: [ManagedObject] = []
        for set in [inserted.slotsInOrder, updated.slotsInOrder, deleted.slotsInOrder] {
            for case let object? in set where object.entity.name == entity.name { objects.append(object) }
        }
        return objects
    }

    /// Every object the context holds.
    var registeredObjects: [ManagedObject] {
        registered.objects + inserted.objects
    }

    // MARK: Discarding changes

    /// Discards every unsaved change: inserted objects go, deleted ones come back, changed values return.
    func rollback() {
        for object in inserted.objects { object.isDeleted = true }
        for object in updated.objects + deleted.objects {
            if let committed = object.committedValues { object.values = committed }
            object.isDeleted = false
        }
        inserted.removeAll()
        updated.removeAll()
        deleted.removeAll()
        attributeMisuses.removeAll()
    }

    /// Forgets every object, saved or not. Objects fetched before must not be used afterwards.
    func reset() {
        registered.removeAll()
        inserted.removeAll()
        updated.removeAll()
        deleted.removeAll()
        attributeMisuses.removeAll()
    }

    /// Re-reads an object from its source. With `mergeChanges`, its unsaved changes stay on top of the new values.
    func refresh(_ object: ManagedObject, mergeChanges: Bool) throws {
        guard object.committedValues != nil else { return }  // an inserted object has nothing to re-read
        guard let (values, version) = try storedValues(of: object.objectID, entity: object.entity) else {
            markGone(object)
            return
        }
        apply(storedValues: values, version: version, to: object, keepingChanges: mergeChanges)
        if !mergeChanges {
            updated.remove(object)
            if deleted.remove(object) { object.isDeleted = false }
        }
    }

    /// Applies new stored values to an object; with `keepingChanges`, attributes changed in memory keep their values.
    func apply(storedValues values: ContiguousArray<AttributeValue>, version: Int64, to object: ManagedObject, keepingChanges: Bool) {
        if keepingChanges, let committed = object.committedValues {
            var merged = values
            for position in values.indices where object.values[position] != committed[position] {
                merged[position] = object.values[position]
            }
            object.values = merged
        } else {
            object.values = values
        }
        object.committedValues = values
        object.version = version
    }

    /// Marks an object whose row no longer exists: deleted, and dropped from the context.
    func markGone(_ object: ManagedObject) {
        unregister(object)
        object.isDeleted = true
        object.isFault = true
    }

    /// The stored values and version of one object, from the parent snapshot or the store; `nil` when it is gone.
    func storedValues(of id: ObjectID, entity: EntityDescription) throws -> (ContiguousArray<AttributeValue>, Int64)? {
        if let snapshot = parentSnapshot {
            if snapshot.deleted.contains(id) { return nil }
            if let entry = snapshot.objects[id] { return (entry.values, entry.version) }
        }
        guard let rowID = id.rowID else { return nil }
        return try withReader { reader in try reader.storedRow(id: rowID, of: entity) }
    }

    /// Runs `body` in the read transaction in progress, or in the pinned generation, or in a new one.
    func withReader<T>(_ body: (any StoreReader) throws -> T) throws -> T {
        if let activeReader { return try body(activeReader) }
        if let generation = try pinnedGeneration() {
            return try generation.reading(interruptedBy: interruptFlag) { reader in
                activeReader = reader
                defer { activeReader = nil }
                return try body(reader)
            }
        }
        return try store.reading(interruptedBy: interruptFlag) { reader in
            activeReader = reader
            defer { activeReader = nil }
            return try body(reader)
        }
    }

    // MARK: Query generations

    /// Whether the context is pinned to a query generation, held now or taken at its next read.
    var isPinned: Bool { generation != nil || pinsAtNextRead }

    /// The generation reads go to: `nil` when the context is not pinned, or while a merge reads.
    private func pinnedGeneration() throws -> (any StoreGeneration)? {
        guard !readsLatestState else { return nil }
        if pinsAtNextRead {
            generation = try store.holdGeneration()
            pinsAtNextRead = false
        }
        return generation
    }

    /// Pins the context to the store's state now, releasing the generation it held.
    func pinGeneration() throws {
        let taken = try store.holdGeneration()
        unpinGeneration()
        generation = taken
    }

    /// Releases the generation held, if any: reads see the latest state again.
    func unpinGeneration() {
        generation?.release()
        generation = nil
        pinsAtNextRead = false
    }

    func existingObject(with id: ObjectID) throws -> ManagedObject {
        if let object = object(for: id) { return object }
        let entity = try store.schema.entity(named: id.entityName)
        guard let (values, version) = try storedValues(of: id, entity: entity) else {
            throw ContextError.objectNotFound(id)
        }
        return register(id: id, entity: entity, values: values, version: version)
    }
}

/// A parent context's unsaved state, handed to a child context when it is made.
struct ParentSnapshot: Sendable {
    struct Entry: Sendable {
        let entityName: String
        let values: ContiguousArray<AttributeValue>
        let version: Int64
    }

    var objects: [ObjectID: Entry] = [:]
    var deleted: Set<ObjectID> = []

    func entries(of entity: EntityDescription) -> [(ObjectID, Entry)] {
        objects.filter { $0.value.entityName == entity.name }.map { ($0.key, $0.value) }
    }
}
