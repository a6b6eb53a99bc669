import Foundation

extension ObjectGraph {
    /// Brings the objects this context holds up to a store change set: changed ones are re-read with their
    /// unsaved changes kept on top, deleted ones are marked deleted and dropped. Objects it does not hold are
    /// not loaded, so the cost follows the objects held, not the size of the change set.
    func merge(_ changeSet: ChangeSet) throws {
        // Merged objects and live results take the latest state, even in a context pinned to a generation.
        let readLatest = readsLatestState
        readsLatestState = true
        defer {
            didTakeIn(changeSet)
            readsLatestState = readLatest
        }
        var stale: [String: [ManagedObject]] = [:]
        for object in registered.objects {
            let id = object.objectID
            guard id.rowID != nil else { continue }
            if changeSet.deleted.contains(id) {
                markGone(object)
            } else if changeSet.updated.contains(id) || changeSet.inserted.contains(id) {
                stale[id.entityName, default: []].append(object)
            }
        }
        if var snapshot = parentSnapshot {
            for id in changeSet.deleted where snapshot.objects.removeValue(forKey: id) != nil {
                snapshot.deleted.insert(id)
            }
            parentSnapshot = snapshot
        }
        guard !stale.isEmpty else { return }
        try withReader { reader in
            for (entityName, objects) in stale {
                let entity = objects[0].entity
                var found: Set<ObjectID> = []
                // Held objects are saved ones: each has a row id.
                try reader.forEachObject(of: entity, rowIDs: objects.compactMap(\.objectID.rowID)) { rowID, version, values in
                    let id = ObjectID(entityName: entityName, rowID: rowID)
                    guard let object = registered[id] else { return }
                    found.insert(id)
                    apply(storedValues: values, version: version, to: object, keepingChanges: true)
                }
                for object in objects where !found.contains(object.objectID) { markGone(object) }
            }
        }
    }

    /// Takes in what a parent context announced: a sibling's save absorbed, or its own save to the store.
    func merge(_ event: ParentEvent) {
        var snapshot = parentSnapshot ?? ParentSnapshot()
        switch event {
        case .absorbed(let changes):
            for (id, entity, values) in changes.inserted + changes.updated {
                let object = object(for: id)
                let version = snapshot.objects[id]?.version ?? object?.version ?? 0
                snapshot.objects[id] = .init(entityName: entity.name, values: values, version: version)
                if let object {
                    apply(storedValues: values, version: object.version, to: object, keepingChanges: true)
                }
            }
            for id in changes.deleted {
                snapshot.objects.removeValue(forKey: id)
                snapshot.deleted.insert(id)
                if let object = object(for: id) { markGone(object) }
            }
        case .savedToStore(let permanentIDs, let written, let removed):
            // What the parent saved is in the store now: the snapshot no longer needs it.
            for (temporary, permanent) in permanentIDs {
                snapshot.objects.removeValue(forKey: temporary)
                // Pushed to the parent, the object is registered; still on its way there, it is inserted.
                if let object = registered.removeValue(forKey: temporary) {
                    object.objectID = permanent
                    registered[permanent] = object
                    if let version = written[permanent] { object.version = version }
                } else if let object = inserted.object(for: temporary) {
                    object.objectID = permanent
                    inserted.objectDidChangeID(object, from: temporary)
                    if let version = written[permanent] { object.version = version }
                }
            }
            for (id, version) in written {
                snapshot.objects.removeValue(forKey: id)
                if let object = registered[id] { object.version = version }
            }
            for id in removed {
                snapshot.objects.removeValue(forKey: id)
                snapshot.deleted.remove(id)
            }
            resolveReferences(permanentIDs, includingSaved: true)
        }
        parentSnapshot = snapshot
    }
}

/// What a context tells its children that merge automatically.
enum ParentEvent: Sendable {
    /// A child's save, now the parent's unsaved changes.
    case absorbed(ChildChanges)
    /// The parent saved to the store: temporary IDs that became permanent, new versions, removed rows.
    case savedToStore(permanentIDs: [ObjectID: ObjectID], versions: [ObjectID: Int64], removed: Set<ObjectID>)
}

extension ParentEvent {
    /// The announcement of a save to the store, from what the save wrote.
    init(saved outcome: SaveTransaction.Outcome, of transaction: SaveTransaction) {
        var permanentIDs: [ObjectID: ObjectID] = [:]
        var versions: [ObjectID: Int64] = [:]
        var removed: Set<ObjectID> = []
        for (insert, result) in zip(transaction.inserts, outcome.inserts) {
            guard let result else { continue }
            permanentIDs[insert.id] = result.id
            versions[result.id] = result.version
        }
        for (update, result) in zip(transaction.updates, outcome.updates) {
            switch result {
            case .written(let written): versions[update.id] = written.version
            case .removed: removed.insert(update.id)
            case .unchanged: break
            }
        }
        for (delete, result) in zip(transaction.deletes, outcome.deletes) {
            if case .written(let written) = result {
                versions[delete.id] = written.version
            } else {
                removed.insert(delete.id)
            }
        }
        self = .savedToStore(permanentIDs: permanentIDs, versions: versions, removed: removed)
    }
}
