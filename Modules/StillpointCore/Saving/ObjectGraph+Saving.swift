import Foundation

extension ObjectGraph {
    /// The unsaved changes as a transaction, after checking required attributes and integer ranges, with the
    /// objects it writes. Typed accesses with another entity's attribute fail it first.
    func makeSaveTransaction() throws -> (SaveTransaction, SaveObjects) {
        if !attributeMisuses.isEmpty { throw SaveError.validation(attributeMisuses) }
        var transaction = SaveTransaction(author: name, origin: origin, defaultPolicy: mergePolicy, entityPolicies: entityMergePolicies)
        var objects = SaveObjects()
        var failures: [ValidationFailure] = []
        // One shared description per entity for all its rows; objects of one entity mostly come in runs.
        var entityRefs: [String: SaveTransaction.EntityRef] = [:]
        var lastRef: SaveTransaction.EntityRef?
        func entityRef(of object: ManagedObject) -> SaveTransaction.EntityRef {
            if let lastRef, lastRef.entity.identity == object.entity.identity { return lastRef }
            let ref = entityRefs[object.entity.name] ?? SaveTransaction.EntityRef(object.entity)
            entityRefs[object.entity.name] = ref
            lastRef = ref
            return ref
        }
        // Inserted objects are written in the order they were inserted.
        objects.inserts = inserted.slotsInOrder
        transaction.inserts.reserveCapacity(inserted.count)
        for case let object? in objects.inserts {
            appendInvalidValues(of: object, to: &failures)
            transaction.inserts.append(.init(id: object.objectID, entityRef: entityRef(of: object), values: object.values))
        }
        for object in updated.objects where object.hasChangedValues {
            appendInvalidValues(of: object, to: &failures)
            transaction.updates.append(.init(id: object.objectID, entityRef: entityRef(of: object), values: object.values,
                                             readValues: object.committedValues ?? object.values, version: object.version))
            objects.updates.append(object)
        }
        objects.deletes = deleted.objects
        transaction.deletes.reserveCapacity(objects.deletes.count)
        for object in objects.deletes {
            transaction.deletes.append(.init(id: object.objectID, entityRef: entityRef(of: object), version: object.version,
                                             readValues: object.committedValues ?? object.values))
        }
        if !deleted.isEmpty { failures += try deniedDeletes() }
        failures += Self.referencesToUnsavedOutside(transaction)
        if !failures.isEmpty { throw SaveError.validation(failures) }
        try Self.orderByReferences(&transaction.inserts, &objects.inserts)
        Self.putInRowOrder(&transaction.updates, &objects.updates, id: \.id)
        Self.putInRowOrder(&transaction.deletes, &objects.deletes, id: \.id)
        putReferringRowsFirst(&transaction.deletes, &objects.deletes)
        return (transaction, objects)
    }

    /// Puts each delete after the deletes of the rows that refer to its row, so that no row is deleted while a row
    /// the save also deletes still refers to it (the store's foreign keys would refuse it): children before their
    /// parent, in one entity (a tree) or across entities.
    private func putReferringRowsFirst(_ deletes: inout [SaveTransaction.Delete], _ objects: inout [ManagedObject]) {
        // The entities deleted, found without hashing each row's (deletes of one entity come in runs).
        var entities: [EntityDescription] = []
        var last: ObjectIdentifier?
        for delete in deletes where delete.entity.identity != last {
            last = delete.entity.identity
            if !entities.contains(where: { $0.identity == last }) { entities.append(delete.entity) }
        }
        let referred = Set(entities.flatMap { $0.relationships.filter(\.isStored).map(\.destination) })
        guard entities.contains(where: { referred.contains($0.name) }) else { return }
        var index: [ObjectID: Int] = [:]
        for (position, delete) in deletes.enumerated() { index[delete.id] = position }
        // For each delete, the deletes of the rows that refer to its row.
        var referrers = [[Int]](repeating: [], count: deletes.count)
        for (position, delete) in deletes.enumerated() {
            for (name, column) in delete.entity.referencePositions {
                guard let destination = delete.entity.relationship(named: name)?.destination,
                      let target = RelationshipReference.objectID(in: delete.readValues[column], entityName: destination),
                      let targetPosition = index[target], targetPosition != position else { continue }
                referrers[targetPosition].append(position)
            }
        }
        // Depth first, without recursion (a chain may be long): a row's referrers, then the row.
        var order: [Int] = []
        order.reserveCapacity(deletes.count)
        var state = [UInt8](repeating: 0, count: deletes.count)  // 0 new, 1 under way, 2 placed
        for root in deletes.indices where state[root] == 0 {
            var stack = [(root, 0)]
            state[root] = 1
            while let (node, next) = stack.last {
                if next < referrers[node].count {
                    stack[stack.count - 1].1 += 1
                    let referrer = referrers[node][next]
                    if state[referrer] == 0 {
                        state[referrer] = 1
                        stack.append((referrer, 0))
                    }
                } else {
                    stack.removeLast()
                    state[node] = 2
                    order.append(node)
                }
            }
        }
        deletes = order.map { deletes[$0] }
        objects = order.map { objects[$0] }
    }

    /// Puts rows (and their objects alike) in the order of their row ids, so that SQLite walks its B-tree forward
    /// instead of jumping about it (for 50,000 deletes, the jumping costs more than the rest of the save).
    ///
    /// Rows fetched in order and deleted are in order already: checking costs one pass, and sorting nothing.
    static func putInRowOrder<Row>(_ rows: inout [Row], _ objects: inout [ManagedObject], id: (Row) -> ObjectID) {
        var previous = Int64.min
        var ordered = true
        for row in rows {
            guard let rowID = id(row).rowID else { return }  // not saved yet: nothing to order by
            if rowID < previous {
                ordered = false
                break
            }
            previous = rowID
        }
        guard !ordered else { return }
        let order = rows.indices.sorted { (id(rows[$0]).rowID ?? 0) < (id(rows[$1]).rowID ?? 0) }
        rows = order.map { rows[$0] }
        objects = order.map { objects[$0] }
    }

    /// Brings the objects up to what the save wrote. Values changed while the save ran stay as unsaved changes.
    func apply(_ outcome: SaveTransaction.Outcome, of transaction: SaveTransaction, to objects: SaveObjects) {
        applyInserts(outcome.inserts, of: transaction.inserts, to: objects.inserts)
        for (index, result) in outcome.updates.enumerated() {
            let object = objects.updates[index]
            guard !object.isFault else { continue }  // gone while the save ran
            switch result {
            case .removed:
                markGone(object)
            case .written(let written):
                adopt(written, sentValues: transaction.updates[index].values, by: object)
                if !object.hasChangedValues { updated.remove(object) }
            case .unchanged:
                break
            }
        }
        applyDeletes(outcome.deletes, of: transaction.deletes, to: objects.deletes)
    }

    /// Gives the saved inserted objects their permanent IDs and committed values, and registers them.
    private func applyInserts(_ results: [SaveTransaction.InsertResult?], of inserts: [SaveTransaction.Insert], to slots: [ManagedObject?]) {
        guard !inserts.isEmpty else { return }
        // Usually no object was inserted or deleted while the save ran: the set is emptied at once at the end.
        let setUnchanged = inserted.isUnchanged(since: slots)
        var index = 0
        for case let object? in slots {
            defer { index += 1 }
            if !setUnchanged {
                guard inserted.remove(object) else { continue }  // deleted while the save ran
            }
            guard let result = results[index] else { continue }
            adopt(result, sentValues: inserts[index].values, by: object)
            if let merged = result.merged, let held = registered[result.id], held !== object {
                // The insert merged into a row this context already holds: the held object stays the row's object
                // and takes the row's values, and the edits made to the inserted one while the save ran. The
                // inserted one, a duplicate now, is marked deleted (as Core Data does with the object that loses a
                // uniqueness conflict), so that nothing saves the row twice through it.
                apply(storedValues: merged.values, version: merged.version, to: held, keepingChanges: true)
                for position in object.values.indices where object.values[position] != merged.values[position] {
                    held.values[position] = object.values[position]
                }
                if held.hasChangedValues { updated.insert(held) }
                object.isDeleted = true
                continue
            }
            if let existing = registered.updateValue(object, forKey: result.id), existing !== object {
                markGone(existing)  // an object of a row deleted elsewhere, whose row id the store gave again
            }
            if object.hasChangedValues { updated.insert(object) }
        }
        if setUnchanged { inserted.removeAll() }
    }

    /// Forgets the deleted objects whose rows the save removed; revives those the rollback policy kept.
    private func applyDeletes(_ results: [SaveTransaction.Result], of deletes: [SaveTransaction.Delete], to objects: [ManagedObject]) {
        for (index, result) in results.enumerated() {
            let object = objects[index]
            guard deleted.remove(object) else { continue }
            if case .written(let written) = result {  // the rollback policy revived it, with the store's values
                object.isDeleted = false
                apply(storedValues: written.values, version: written.version, to: object, keepingChanges: false)
            } else if registered[deletes[index].id] === object {
                registered.removeValue(forKey: deletes[index].id)
            }
        }
    }

    /// Brings one saved insert's object up to date under its permanent ID (registering it is the caller's).
    private func adopt(_ result: SaveTransaction.InsertResult, sentValues: ContiguousArray<AttributeValue>, by object: ManagedObject) {
        object.objectID = result.id
        guard let merged = result.merged else {
            if let resolved = result.resolvedValues {
                adopt(SaveTransaction.Written(values: resolved, version: 1), sentValues: sentValues, by: object)
                return
            }
            object.committedValues = sentValues
            object.version = 1
            return
        }
        adopt(merged, sentValues: sentValues, by: object)
    }

    /// The changes of a child context, as its parent receives them, with the objects they come from.
    func makeChildChanges() throws -> (ChildChanges, SaveObjects) {
        let (transaction, objects) = try makeSaveTransaction()
        let changes = ChildChanges(
            inserted: transaction.inserts.map { ($0.id, $0.entity, $0.values) },
            updated: transaction.updates.map { ($0.id, $0.entity, $0.values) },
            deleted: transaction.deletes.map(\.id))
        return (changes, objects)
    }

    /// Marks a child's changes as saved: they now live in the parent, which the child sees as its base.
    func didPushToParent(_ changes: ChildChanges, from objects: SaveObjects) {
        var snapshot = parentSnapshot ?? ParentSnapshot()
        let pushed = Array(zip(changes.inserted, objects.inserts.compactMap { $0 })) + Array(zip(changes.updated, objects.updates))
        for ((pushedID, entity, values), object) in pushed {
            // An ID that changed meanwhile is the parent's save to the store: the store holds what was pushed.
            if object.objectID == pushedID {
                snapshot.objects[pushedID] = .init(entityName: entity.name, values: values, version: object.version)
            }
            object.committedValues = values
            // Saved to the parent, the object is found by its ID like any saved object.
            if inserted.remove(object) { registered[object.objectID] = object }
            if !object.hasChangedValues { updated.remove(object) }
        }
        for (id, object) in zip(changes.deleted, objects.deletes) {
            snapshot.objects.removeValue(forKey: id)
            snapshot.deleted.insert(id)
            if deleted.contains(object) { unregister(object) }
        }
        parentSnapshot = snapshot
    }

    /// Takes a child's saved changes in as this context's own unsaved changes.
    func absorb(_ changes: ChildChanges) throws {
        for (id, entity, values) in changes.inserted {
            if let object = object(for: id) {
                object.values = values
                continue
            }
            inserted.insert(ManagedObject(entity: entity, objectID: id, values: values, committedValues: nil, version: 0, graph: self))
        }
        for (id, _, values) in changes.updated {
            let object = try existingObject(with: id)
            for position in values.indices where object.values[position] != values[position] {
                object.values[position] = values[position]
            }
            didChange(object)
        }
        for id in changes.deleted {
            guard let object = try? existingObject(with: id) else { continue }
            try delete(object, applyingRules: false)  // the child applied them: what they reached comes deleted too
        }
    }

    /// The parent's unsaved state, for a new child context.
    func snapshotForChild() -> ParentSnapshot {
        var snapshot = parentSnapshot ?? ParentSnapshot()
        for object in inserted.objects + updated.objects {
            snapshot.objects[object.objectID] = .init(entityName: object.entity.name, values: object.values, version: object.version)
        }
        for object in deleted.objects {
            snapshot.objects.removeValue(forKey: object.objectID)
            snapshot.deleted.insert(object.objectID)
        }
        return snapshot
    }

    private func adopt(_ written: SaveTransaction.Written, sentValues: ContiguousArray<AttributeValue>, by object: ManagedObject) {
        // Usually the store holds exactly what was sent (the very same array): the values stay as they are, and
        // share their storage with the committed values, which makes later change checks cheap.
        let wroteWhatWasSent = written.values.withUnsafeBufferPointer { writtenBuffer in
            sentValues.withUnsafeBufferPointer { $0.baseAddress == writtenBuffer.baseAddress && $0.count == writtenBuffer.count }
        }
        if !wroteWhatWasSent {
            // Attributes edited while the save was in flight keep their newer value.
            for position in object.values.indices where object.values[position] == sentValues[position] {
                object.values[position] = written.values[position]
            }
        }
        object.committedValues = written.values
        object.version = written.version
    }

    /// Adds a failure for each required attribute of `object` without a value, and each integer out of its
    /// attribute's range; allocates nothing when every value fits.
    private func appendInvalidValues(of object: ManagedObject, to failures: inout [ValidationFailure]) {
        let attributes = object.entity.storedAttributes
        for position in attributes.indices {
            let attribute = attributes[position], value = object.values[position]
            if (!attribute.isOptional || attribute.isRequiredReference) && value.isNull {
                failures.append(ValidationFailure(objectID: object.objectID, reason: .missingValue(attribute: attribute.name)))
            } else if !attribute.isInRange(value) {
                failures.append(ValidationFailure(objectID: object.objectID, reason: .outOfRange(attribute: attribute.name, value: value,
                                                                                               range: attribute.integerRange)))
            }
        }
    }
}

/// A child context's saved changes, on their way to its parent.
struct ChildChanges: Sendable {
    var inserted: [(ObjectID, EntityDescription, ContiguousArray<AttributeValue>)]
    var updated: [(ObjectID, EntityDescription, ContiguousArray<AttributeValue>)]
    var deleted: [ObjectID]
}
