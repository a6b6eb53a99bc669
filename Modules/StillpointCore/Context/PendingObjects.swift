/// One of a context's sets of unsaved objects (inserted, updated or deleted), in the order objects joined it.
///
/// Each object keeps its own place in the set, so that joining, leaving and membership hash nothing: inserting
/// or deleting 50,000 objects then costs 50,000 appends, not 50,000 dictionary entries to grow and re-key.
/// Looking an object up by ID builds an index the first time, which later changes keep up to date.
struct PendingObjects {
    enum Kind: Int {
        case inserted, updated, deleted
    }

    let kind: Kind
    /// The objects in joining order; `nil` where one has left.
    private var slots: [ManagedObject?] = []
    private(set) var count = 0
    /// Slot numbers by ID, built on the first look-up by ID.
    private var index: [ObjectID: Int]?

    init(_ kind: Kind) {
        self.kind = kind
    }

    var isEmpty: Bool { count == 0 }

    /// The objects in the order they joined.
    var objects: [ManagedObject] {
        guard count < slots.count else { return slots.map { $0! } }  // swiftlint:disable:this force_unwrapping: a full set has no empty slot
        return slots.compactMap { $0 }
    }

    /// The objects in joining order with `nil` where one has left: the set's own storage, shared, not copied.
    var slotsInOrder: [ManagedObject?] { slots }

    /// Whether the set is still exactly what ``slotsInOrder`` returned as `slots`: nothing joined or left since.
    func isUnchanged(since slots: [ManagedObject?]) -> Bool {
        self.slots.withUnsafeBufferPointer { mine in
            slots.withUnsafeBufferPointer { $0.baseAddress == mine.baseAddress && $0.count == mine.count }
        }
    }

    func contains(_ object: ManagedObject) -> Bool {
        let slot = object.pendingSlots[kind]
        return slot >= 0 && slot < slots.count && slots[slot] === object
    }

    /// Adds `object` unless it is in the set already.
    mutating func insert(_ object: ManagedObject) {
        guard !contains(object) else { return }
        object.pendingSlots[kind] = slots.count
        index?[object.objectID] = slots.count
        slots.append(object)
        count += 1
    }

    /// Removes `object`; returns whether it was in the set.
    @discardableResult
    mutating func remove(_ object: ManagedObject) -> Bool {
        guard contains(object) else { return false }
        slots[object.pendingSlots[kind]] = nil
        object.pendingSlots[kind] = -1
        index?.removeValue(forKey: object.objectID)
        count -= 1
        if count == 0 {
            removeAll()
        } else if slots.count > 64 && count < slots.count / 4 {
            compact()
        }
        return true
    }

    /// Empties the set.
    mutating func removeAll() {
        for case let object? in slots { object.pendingSlots[kind] = -1 }
        // Small sets keep their storage for the next changes; a large one lets it go (a save may share it).
        slots.removeAll(keepingCapacity: slots.count <= 1_024)
        count = 0
        index = nil
    }

    /// The object in the set with `id`.
    mutating func object(for id: ObjectID) -> ManagedObject? {
        guard count > 0 else { return nil }
        if index == nil {
            var built: [ObjectID: Int] = [:]
            built.reserveCapacity(count)
            for case let (slot, object?) in slots.enumerated() { built[object.objectID] = slot }
            index = built
        }
        return index![id].flatMap { slots[$0] }  // swiftlint:disable:this force_unwrapping: built above
    }

    /// Tells the set that an object it holds changed ID (a save made it permanent).
    mutating func objectDidChangeID(_ object: ManagedObject, from oldID: ObjectID) {
        guard contains(object), index != nil else { return }
        index!.removeValue(forKey: oldID)  // swiftlint:disable:this force_unwrapping: checked by the guard
        index![object.objectID] = object.pendingSlots[kind]  // swiftlint:disable:this force_unwrapping: checked by the guard
    }

    /// Closes the gaps left by objects that left, keeping the order.
    private mutating func compact() {
        let remaining = objects
        slots = []
        index = nil
        count = 0
        for object in remaining {
            object.pendingSlots[kind] = -1
            insert(object)
        }
    }
}
