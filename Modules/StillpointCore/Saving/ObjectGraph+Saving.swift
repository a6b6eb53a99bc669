import Foundation

extension ObjectGraph {
    /// The unsaved changes as a transaction, after checking required attributes.
    func makeSaveTransaction() throws -> SaveTransaction {
        var transaction = SaveTransaction(author: name, defaultPolicy: mergePolicy, entityPolicies: entityMergePolicies)
        var failures: [ValidationFailure] = []
        // Inserted objects are written in the order they were inserted.
        for object in inserted.values.sorted(by: { $0.objectID.temporaryNumber < $1.objectID.temporaryNumber }) {
            failures += missingValues(object)
            transaction.inserts.append(.init(id: object.objectID, entity: object.entity, values: object.values))
        }
        for object in updated.values where object.hasChangedValues {
            failures += missingValues(object)
            transaction.updates.append(.init(id: object.objectID, entity: object.entity, values: object.values,
                                             readValues: object.committedValues ?? object.values, version: object.version))
        }
        for object in deleted.values {
            transaction.deletes.append(.init(id: object.objectID, entity: object.entity, version: object.version,
                                             readValues: object.committedValues ?? object.values))
        }
        if !failures.isEmpty { throw SaveError.validation(failures) }
        return transaction
    }

    /// Brings the objects up to what the save wrote. Values changed while the save ran stay as unsaved changes.
    func apply(_ outcome: SaveTransaction.Outcome, of transaction: SaveTransaction) {
        for insert in transaction.inserts {
            guard let object = inserted.removeValue(forKey: insert.id) else { continue }
            registered.removeValue(forKey: insert.id)
            guard let permanentID = outcome.permanentIDs[insert.id], let written = outcome.written[insert.id] else { continue }
            object.objectID = permanentID
            adopt(written, sentValues: insert.values, by: object)
            if let existing = registered[permanentID], existing !== object { markGone(existing) }
            registered[permanentID] = object
            if object.hasChangedValues { updated[permanentID] = object }
        }
        for update in transaction.updates {
            guard let object = registered[update.id] else { continue }
            if outcome.removed.contains(update.id) {
                markGone(object)
            } else if let written = outcome.written[update.id] {
                adopt(written, sentValues: update.values, by: object)
                if !object.hasChangedValues { updated.removeValue(forKey: update.id) }
            }
        }
        for delete in transaction.deletes {
            guard let object = deleted.removeValue(forKey: delete.id) else { continue }
            if let written = outcome.written[delete.id] {  // the rollback policy revived it
                object.isDeleted = false
                adopt(written, sentValues: written.values, by: object)
            } else {
                registered.removeValue(forKey: delete.id)
            }
        }
    }

    /// The changes of a child context, as its parent receives them.
    func makeChildChanges() throws -> ChildChanges {
        let transaction = try makeSaveTransaction()
        return ChildChanges(
            inserted: transaction.inserts.map { ($0.id, $0.entity, $0.values) },
            updated: transaction.updates.map { ($0.id, $0.entity, $0.values) },
            deleted: transaction.deletes.map(\.id))
    }

    /// Marks a child's changes as saved: they now live in the parent, which the child sees as its base.
    func didPushToParent(_ changes: ChildChanges) {
        var snapshot = parentSnapshot ?? ParentSnapshot()
        for (id, entity, values) in changes.inserted + changes.updated {
            guard let object = registered[id] else { continue }
            snapshot.objects[id] = .init(entityName: entity.name, values: values, version: object.version)
            object.committedValues = values
            inserted.removeValue(forKey: id)
            if !object.hasChangedValues { updated.removeValue(forKey: id) }
        }
        for id in changes.deleted {
            snapshot.objects.removeValue(forKey: id)
            snapshot.deleted.insert(id)
            if let object = deleted.removeValue(forKey: id) { unregister(object) }
        }
        parentSnapshot = snapshot
    }

    /// Takes a child's saved changes in as this context's own unsaved changes.
    func absorb(_ changes: ChildChanges) throws {
        for (id, entity, values) in changes.inserted {
            if let object = registered[id] {
                object.values = values
                continue
            }
            let object = ManagedObject(entity: entity, objectID: id, values: values, committedValues: nil, version: 0, graph: self)
            registered[id] = object
            inserted[id] = object
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
            try delete(object)
        }
    }

    /// The parent's unsaved state, for a new child context.
    func snapshotForChild() -> ParentSnapshot {
        var snapshot = parentSnapshot ?? ParentSnapshot()
        for object in Array(inserted.values) + Array(updated.values) {
            snapshot.objects[object.objectID] = .init(entityName: object.entity.name, values: object.values, version: object.version)
        }
        for id in deleted.keys {
            snapshot.objects.removeValue(forKey: id)
            snapshot.deleted.insert(id)
        }
        return snapshot
    }

    private func adopt(_ written: SaveTransaction.Written, sentValues: ContiguousArray<AttributeValue>, by object: ManagedObject) {
        // Attributes edited while the save was in flight keep their newer value.
        for position in object.values.indices where object.values[position] == sentValues[position] {
            object.values[position] = written.values[position]
        }
        object.committedValues = written.values
        object.version = written.version
    }

    private func missingValues(_ object: ManagedObject) -> [ValidationFailure] {
        object.entity.attributes.indices.compactMap { position in
            let attribute = object.entity.attributes[position]
            guard !attribute.isOptional, object.values[position].isNull else { return nil }
            return ValidationFailure(objectID: object.objectID, reason: .missingValue(attribute: attribute.name))
        }
    }
}

/// A child context's saved changes, on their way to its parent.
struct ChildChanges: Sendable {
    var inserted: [(ObjectID, EntityDescription, ContiguousArray<AttributeValue>)]
    var updated: [(ObjectID, EntityDescription, ContiguousArray<AttributeValue>)]
    var deleted: [ObjectID]
}

extension ObjectID {
    /// The order of temporary IDs, which is the order objects were inserted.
    var temporaryNumber: UInt64 {
        if case .temporary(let number) = storage { return number }
        return 0
    }
}
