import Foundation

extension ObjectGraph {
    /// The unsaved changes as a transaction, after checking required attributes.
    func makeSaveTransaction() throws -> SaveTransaction {
        var transaction = SaveTransaction(author: name, origin: origin, defaultPolicy: mergePolicy, entityPolicies: entityMergePolicies)
        var failures: [ValidationFailure] = []
        // One shared description per entity for all its rows; objects of one entity mostly come in runs.
        var entityRefs: [String: SaveTransaction.EntityRef] = [:]
        var lastRef: SaveTransaction.EntityRef?
        func entityRef(of object: ManagedObject) -> SaveTransaction.EntityRef {
            if let lastRef, lastRef.entity.name == object.entity.name { return lastRef }
            let ref = entityRefs[object.entity.name] ?? SaveTransaction.EntityRef(object.entity)
            entityRefs[object.entity.name] = ref
            lastRef = ref
            return ref
        }
        // Inserted objects are written in the order they were inserted.
        transaction.inserts.reserveCapacity(inserted.count)
        func add(_ id: ObjectID, _ object: ManagedObject) {
            appendMissingValues(of: object, to: &failures)
            transaction.inserts.append(.init(id: id, entityRef: entityRef(of: object), values: object.values))
        }
        if let (_, slots) = insertedByNumber() {
            for case let object? in slots { add(object.objectID, object) }
        } else {
            for (id, object) in inserted.sorted(by: { $0.key.temporaryNumber < $1.key.temporaryNumber }) { add(id, object) }
        }
        for object in updated.values where object.hasChangedValues {
            appendMissingValues(of: object, to: &failures)
            transaction.updates.append(.init(id: object.objectID, entityRef: entityRef(of: object), values: object.values,
                                             readValues: object.committedValues ?? object.values, version: object.version))
        }
        transaction.deletes.reserveCapacity(deleted.count)
        for (id, object) in deleted {
            transaction.deletes.append(.init(id: id, entityRef: entityRef(of: object), version: object.version,
                                             readValues: object.committedValues ?? object.values))
        }
        if !failures.isEmpty { throw SaveError.validation(failures) }
        transaction.updates = Self.inRowOrder(transaction.updates, id: \.id)
        transaction.deletes = Self.inRowOrder(transaction.deletes, id: \.id)
        return transaction
    }

    /// Rows in the order of their row ids, so that SQLite walks its B-tree forward instead of jumping about it in
    /// the order of a dictionary (for 50,000 deletes, the jumping costs more than the rest of the save).
    ///
    /// Dense ids, the usual case, are placed by id in one pass; others are sorted.
    static func inRowOrder<Row>(_ rows: [Row], id: (Row) -> ObjectID) -> [Row] {
        guard rows.count > 1 else { return rows }
        var low = Int64.max, high = Int64.min
        for row in rows {
            guard let rowID = id(row).rowID else { return rows }  // not saved yet: nothing to order by
            low = min(low, rowID)
            high = max(high, rowID)
        }
        let (span, overflow) = high.subtractingReportingOverflow(low)
        if !overflow, span < Int64(rows.count) * 4 {
            var slots = [Int](repeating: -1, count: Int(span) + 1)
            var distinct = true
            for index in rows.indices {
                let slot = Int(id(rows[index]).rowID! - low)
                guard slots[slot] < 0 else {
                    distinct = false  // two entities' rows share an id: sort instead
                    break
                }
                slots[slot] = index
            }
            if distinct {
                var ordered: [Row] = []
                ordered.reserveCapacity(rows.count)
                for index in slots where index >= 0 { ordered.append(rows[index]) }
                return ordered
            }
        }
        return rows.sorted { (id($0).rowID ?? 0) < (id($1).rowID ?? 0) }
    }

    /// Brings the objects up to what the save wrote. Values changed while the save ran stay as unsaved changes.
    func apply(_ outcome: SaveTransaction.Outcome, of transaction: SaveTransaction) {
        applyInserts(outcome.inserts, of: transaction.inserts)
        for (update, result) in zip(transaction.updates, outcome.updates) {
            guard let object = registered[update.id] else { continue }
            switch result {
            case .removed:
                markGone(object)
            case .written(let written):
                adopt(written, sentValues: update.values, by: object)
                if !object.hasChangedValues { updated.removeValue(forKey: update.id) }
            case .unchanged:
                break
            }
        }
        applyDeletes(outcome.deletes, of: transaction.deletes)
    }

    /// Gives the saved inserted objects their permanent IDs and committed values.
    ///
    /// A large save into a fresh context is the common case, and the identity map's cost there is hashing IDs:
    /// when nothing was inserted or deleted while the save ran, the objects are taken without looking each up,
    /// and when the context holds nothing else, the identity map is built anew rather than re-keyed entry by entry.
    private func applyInserts(_ results: [SaveTransaction.InsertResult?], of inserts: [SaveTransaction.Insert]) {
        guard !inserts.isEmpty else { return }
        guard results.count == inserts.count, let slots = insertedObjectsIfExactly(inserts) else {
            for index in inserts.indices where index < results.count {
                guard let object = inserted.removeValue(forKey: inserts[index].id) else { continue }
                registered.removeValue(forKey: inserts[index].id)
                guard let result = results[index] else { continue }
                adopt(result, sentValues: inserts[index].values, by: object)
                if let existing = registered.updateValue(object, forKey: result.id), existing !== object {
                    markGone(existing)  // which unregisters the ID: register the saved object again
                    registered[result.id] = object
                }
                if object.hasChangedValues { updated[result.id] = object }
            }
            return
        }
        inserted.removeAll(keepingCapacity: true)
        let numbers = inserts[0].id.temporaryNumber...inserts[inserts.count - 1].id.temporaryNumber
        let holdsOnlyThese = registered.count == inserts.count
            && registered.keys.allSatisfy { $0.isTemporary && numbers.contains($0.temporaryNumber) }
        var renamed: [ObjectID: ManagedObject] = [:]
        if holdsOnlyThese {
            renamed.reserveCapacity(inserts.count)
        }
        for index in inserts.indices {
            guard let object = slots[index] else { continue }
            if !holdsOnlyThese { registered.removeValue(forKey: inserts[index].id) }
            guard let result = results[index] else { continue }
            adopt(result, sentValues: inserts[index].values, by: object)
            let displaced = holdsOnlyThese ? renamed.updateValue(object, forKey: result.id) : registered.updateValue(object, forKey: result.id)
            if let existing = displaced, existing !== object {
                markGone(existing)  // which unregisters the ID: register the saved object again
                if holdsOnlyThese { renamed[result.id] = object } else { registered[result.id] = object }
            }
            if object.hasChangedValues { updated[result.id] = object }
        }
        if holdsOnlyThese { registered = renamed }
    }

    /// Forgets the deleted objects whose rows the save removed; revives those the rollback policy kept.
    ///
    /// When the deleted objects are exactly the rows the save removed (one entity, a contiguous run of row ids,
    /// as when deleting everything fetched), the sets are emptied at once instead of entry by entry.
    private func applyDeletes(_ results: [SaveTransaction.Result], of deletes: [SaveTransaction.Delete]) {
        guard !deletes.isEmpty else { return }
        if results.count == deletes.count, deleted.count == deletes.count,
           !results.contains(where: { if case .written = $0 { return true } else { return false } }),
           let range = Self.contiguousRowRange(of: deletes), deleted.keys.allSatisfy({ range.contains($0) }) {
            deleted.removeAll(keepingCapacity: true)
            if registered.count == deletes.count, registered.keys.allSatisfy({ range.contains($0) }) {
                registered.removeAll(keepingCapacity: true)
            } else {
                for index in deletes.indices { registered.removeValue(forKey: deletes[index].id) }
            }
            return
        }
        for index in deletes.indices where index < results.count {
            guard let object = deleted.removeValue(forKey: deletes[index].id) else { continue }
            if case .written(let written) = results[index] {  // the rollback policy revived it
                object.isDeleted = false
                adopt(written, sentValues: written.values, by: object)
            } else {
                registered.removeValue(forKey: deletes[index].id)
            }
        }
    }

    /// The rows of one entity, with distinct ids in a contiguous run, that `deletes` (in row order) covers.
    private static func contiguousRowRange(of deletes: [SaveTransaction.Delete]) -> RowRange? {
        guard let first = deletes.first?.id, let low = first.rowID, let high = deletes[deletes.count - 1].id.rowID,
              high >= low, high - low == Int64(deletes.count - 1) else { return nil }
        var previous = low - 1
        for index in deletes.indices {
            let id = deletes[index].id
            guard let rowID = id.rowID, rowID == previous + 1, id.entityName == first.entityName else { return nil }
            previous = rowID
        }
        return RowRange(entityName: first.entityName, rowIDs: low...high)
    }

    /// Brings one saved insert's object up to date under its permanent ID (registering it is the caller's).
    private func adopt(_ result: SaveTransaction.InsertResult, sentValues: ContiguousArray<AttributeValue>, by object: ManagedObject) {
        object.objectID = result.id
        adopt(result.written, sentValues: sentValues, by: object)
    }

    /// The inserted objects placed by temporary number, `slots[number - low]`, which is the order they were
    /// inserted in; `nil` when the numbers are too spread out for that (or, defensively, when two share one).
    ///
    /// The numbers come from one counter, so one context's are nearly contiguous: placing them takes one pass
    /// and no sort.
    private func insertedByNumber() -> (low: UInt64, slots: [ManagedObject?])? {
        guard !inserted.isEmpty else { return nil }
        var low = UInt64.max, high = UInt64.min
        for id in inserted.keys {
            let number = id.temporaryNumber
            low = min(low, number)
            high = max(high, number)
        }
        guard high - low < UInt64(inserted.count) * 4 else { return nil }
        var slots = [ManagedObject?](repeating: nil, count: Int(high - low) + 1)
        for (id, object) in inserted {
            let slot = Int(id.temporaryNumber - low)
            guard slots[slot] == nil else { return nil }
            slots[slot] = object
        }
        return (low, slots)
    }

    /// The inserted objects in the order of `inserts`, when they are exactly the objects `inserts` holds and
    /// their numbers are contiguous; otherwise `nil`.
    ///
    /// `inserts` is in number order with distinct numbers, so a contiguous run of as many numbers as there are
    /// inserted objects, covered by the inserted objects' own numbers, means the two sets are the same.
    private func insertedObjectsIfExactly(_ inserts: [SaveTransaction.Insert]) -> [ManagedObject?]? {
        guard inserted.count == inserts.count, let first = inserts.first?.id.temporaryNumber,
              let last = inserts.last?.id.temporaryNumber, last >= first, last - first == UInt64(inserts.count - 1),
              let (low, slots) = insertedByNumber(), low == first, slots.count == inserts.count else { return nil }
        return slots
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

    /// Adds a failure for each required attribute of `object` without a value; allocates nothing when none is missing.
    private func appendMissingValues(of object: ManagedObject, to failures: inout [ValidationFailure]) {
        let attributes = object.entity.attributes
        for position in attributes.indices where !attributes[position].isOptional && object.values[position].isNull {
            failures.append(ValidationFailure(objectID: object.objectID, reason: .missingValue(attribute: attributes[position].name)))
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

/// A contiguous run of row ids of one entity, to tell in one comparison whether an ID is among a save's rows.
private struct RowRange {
    let entityName: String
    let rowIDs: ClosedRange<Int64>

    func contains(_ id: ObjectID) -> Bool {
        guard let rowID = id.rowID else { return false }
        return rowIDs.contains(rowID) && id.entityName == entityName
    }
}
