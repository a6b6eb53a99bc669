import Foundation

/// A store's row writes, over which the core's one algorithm writes saves (``SaveTransaction/run(rows:hub:)``),
/// import batches (``ImportBatch/run(rows:hub:)``) and batch statements
/// (``BatchStatement/run(rows:author:origin:policy:hub:)``) under the merge policies: every store implements these,
/// each with its fastest way of writing rows (SQLite's prepared statements, PostgreSQL's `COPY`).
///
/// ```swift
/// let outcome = try transaction.run(rows: PostgresSaveRows(connection), hub: hub)
/// ```
package protocol SaveRowWriter {
    /// Inserts a row and returns its id, or `nil`, writing nothing, when a unique key of it is taken.
    func insertRow(_ values: ContiguousArray<AttributeValue>, of entity: EntityDescription) throws -> Int64?

    /// Inserts `rows` in order, as one ``insertRow(_:of:)`` per row would, in as few statements as the store can:
    /// each row's id (ids ascend with the rows), or `nil` where a unique key of it was taken (by a stored row or an
    /// earlier row of `rows`) and nothing was written for it.
    func insertRows(_ rows: [ContiguousArray<AttributeValue>], of entity: EntityDescription) throws -> [Int64?]

    /// Runs `body` in a savepoint of the transaction: when it returns `false`, what it wrote is undone and the
    /// transaction goes on. Returns what `body` returned.
    func undoingUnless(_ body: () throws -> Bool) throws -> Bool

    /// Writes `values` over the row `rowID` if it still has `version`, and steps its version.
    func updateRow(_ values: ContiguousArray<AttributeValue>, of entity: EntityDescription, rowID: Int64, version: Int64) throws -> RowWriteResult

    /// Writes each row's values over it if it still has its version, stepping the version, in as few statements as
    /// the store can, and returns whether each row was written, in the order of `rows` (`false`: stale). The caller
    /// sends only updates that leave the attributes of every uniqueness constraint as they were, so that none can
    /// be refused. By position, not a set of ids: a large save then hashes no row id to learn its outcome.
    func updateRows(_ rows: [(rowID: Int64, version: Int64, values: ContiguousArray<AttributeValue>)], of entity: EntityDescription) throws -> [Bool]

    /// Deletes each row that still has its version, in as few statements as the store can, and returns whether each
    /// row was deleted, in the order of `rows` (`false`: it has another version, or is gone).
    func deleteRows(_ rows: [(rowID: Int64, version: Int64)], of entity: EntityDescription) throws -> [Bool]

    /// Deletes the row `rowID` if it still has `version` (any version when `nil`); whether it was deleted.
    func deleteRow(of entity: EntityDescription, rowID: Int64, version: Int64?) throws -> Bool

    /// The values and version of one row, or `nil` when it does not exist.
    func storedRow(id: Int64, of entity: EntityDescription) throws -> (ContiguousArray<AttributeValue>, Int64)?

    /// The stored row, other than `excluded`, that holds a unique key of `values`, and that key's attributes.
    func rowHolding(uniqueKeyOf values: ContiguousArray<AttributeValue>, entity: EntityDescription,
                    excluding excluded: Int64?) throws -> (id: Int64, values: ContiguousArray<AttributeValue>, version: Int64, constraint: [String])?

    /// The stored rows whose attributes `names` hold one of `keys` (each a value per name), in no order.
    func rows(of entity: EntityDescription, keyedBy names: [String], among keys: [[AttributeValue]])
        throws -> [(id: Int64, values: ContiguousArray<AttributeValue>, version: Int64)]

    /// Deletes the rows `request`'s predicate selects (every row without one), in one statement, and returns their
    /// ids: a batch delete.
    func deleteRows(matching request: FetchRequest) throws -> [Int64]

    /// Writes `values` over the rows `request`'s predicate selects (every row without one), stepping their
    /// versions, in one statement, and returns their ids: a batch update.
    func updateRows(matching request: FetchRequest, setting values: [(name: String, value: AttributeValue)]) throws -> [Int64]

    /// Appends a change-log entry in the same transaction and returns its sequence number.
    func recordChanges(_ payload: String, author: String, origin: StoreOrigin, timestamp: Date) throws -> Int64

    /// Runs `action` once the transaction commits, and never if it rolls back.
    func afterCommit(_ action: @escaping @Sendable () -> Void)
}

extension SaveTransaction {
    /// Writes everything through `rows`, resolving conflicts by the merge policies;
    /// throws when a conflict falls under the `error` policy or an object breaks a uniqueness constraint (the
    /// caller's transaction then rolls back). The change set is published on `hub` once the transaction commits.
    package func run(rows: some SaveRowWriter, hub: ChangeSetHub) throws -> Outcome {
        var outcome = Outcome()
        var conflicts: [MergeConflict] = []
        var failures: [ValidationFailure] = []
        var inserted = ObjectIDSet.Builder(), updated = ObjectIDSet.Builder(), deleted = ObjectIDSet.Builder()
        var changedAttributes: [String: Set<String>] = [:]

        // References to objects this save inserts become row ids as their rows are written: the inserts referred
        // to go first, one by one, so that the others, in bulk, refer to rows that exist.
        let resolvesReferences = refersToUnsavedObjects
        var rowIDs: [UInt64: Int64] = [:]
        var results = [InsertResult?](repeating: nil, count: inserts.count)
        func writeInsert(_ index: Int, bulkRowID: Int64?) throws {
            // The common case of a large save, read in place: a copy of the insert retains and releases its fields.
            if let bulkRowID, !resolvesReferences {
                let id = ObjectID(entityName: inserts[index].entityRef.entity.name, rowID: bulkRowID)
                results[index] = InsertResult(id: id, merged: nil)
                inserted.append(id)
                return
            }
            var insert = inserts[index]
            if resolvesReferences {
                insert = Insert(id: insert.id, entityRef: insert.entityRef, values: Self.resolving(insert.values, of: insert.entity, rowIDs: rowIDs))
            }
            let entity = insert.entity
            if let rowID = try bulkRowID ?? rows.insertRow(insert.values, of: entity) {
                let id = ObjectID(entityName: entity.name, rowID: rowID)
                if let number = insert.id.temporaryNumber, resolvesReferences { rowIDs[number] = rowID }
                results[index] = InsertResult(id: id, merged: nil, resolvedValues: resolvesReferences ? insert.values : nil)
                inserted.append(id)
                return
            }
            guard let clash = try rows.rowHolding(uniqueKeyOf: insert.values, entity: entity, excluding: nil) else {
                throw SaveError.validation([ValidationFailure(objectID: insert.id, reason: .uniquenessViolation(attributes: [], values: []))])
            }
            let existing = ObjectID(entityName: entity.name, rowID: clash.id)
            if let number = insert.id.temporaryNumber, resolvesReferences { rowIDs[number] = clash.id }
            switch policy(entity) {
            case .error:
                failures.append(Self.failure(insert.id, entity, constraint: clash.constraint, values: clash.values))
            case .mergeByPropertyObjectTrump, .overwrite:
                switch try rows.updateRow(insert.values, of: entity, rowID: clash.id, version: clash.version) {
                case .written:
                    results[index] = InsertResult(id: existing, merged: Written(values: insert.values, version: clash.version + 1))
                    updated.append(existing)
                    changedAttributes[entity.name, default: []].formUnion(entity.storedAttributes.map(\.name))
                case .stale, .uniqueKeyTaken:
                    // Its values also repeat another row's key: two rows cannot become one.
                    let other = try rows.rowHolding(uniqueKeyOf: insert.values, entity: entity, excluding: clash.id)
                    failures.append(Self.failure(insert.id, entity, constraint: other?.constraint ?? clash.constraint,
                                                 values: other?.values ?? clash.values))
                }
            case .mergeByPropertyStoreTrump, .rollback:
                results[index] = InsertResult(id: existing, merged: Written(values: clash.values, version: clash.version))
            }
        }
        var written = [Bool](repeating: false, count: inserts.count)
        if resolvesReferences {
            let referred = Set(inserts.flatMap { insert in
                insert.entity.referencePositions.compactMap { RelationshipReference.temporaryNumber(in: insert.values[$0.position]) }
            })
            for index in inserts.indices where inserts[index].id.temporaryNumber.map(referred.contains) == true {
                try writeInsert(index, bulkRowID: nil)
                written[index] = true
            }
        }
        let insertedInBulk = try insertInBulk(rows: rows, skipping: written, resolving: rowIDs)
        for index in inserts.indices where !written[index] {
            try writeInsert(index, bulkRowID: insertedInBulk[index])
        }
        outcome.inserts = results
        let resolvedTransaction = resolvesReferences ? resolvingUpdates(rowIDs) : self
        try resolvedTransaction.writeRest(rows: rows, into: &outcome, conflicts: &conflicts, failures: &failures,
                                          inserted: &inserted, updated: &updated, deleted: &deleted, changedAttributes: &changedAttributes)
        return try finish(outcome, rows: rows, hub: hub, conflicts: conflicts, failures: failures,
                          inserted: inserted, updated: updated, deleted: deleted, changedAttributes: changedAttributes)
    }

    /// The updates and deletes of a save, after its inserts.
    private func writeRest(rows: some SaveRowWriter, into outcome: inout Outcome, conflicts: inout [MergeConflict],
                           failures: inout [ValidationFailure], inserted: inout ObjectIDSet.Builder, updated: inout ObjectIDSet.Builder,
                           deleted: inout ObjectIDSet.Builder, changedAttributes: inout [String: Set<String>]) throws {
        let updatedInBulk = try updateInBulk(rows: rows)
        for (index, update) in updates.enumerated() {
            guard let rowID = update.id.rowID else {
                outcome.updates.append(.unchanged)
                continue
            }
            let (changed, result) = try writeUpdate(update, rowID: rowID, rows: rows, written: updatedInBulk[index],
                                                    conflicts: &conflicts, failures: &failures)
            outcome.updates.append(result)
            if !changed.isEmpty {
                updated.append(update.id)
                changedAttributes[update.entity.name, default: []].formUnion(changed)
            }
        }

        let deletedInBulk = try deleteInBulk(rows: rows)
        outcome.deletes.reserveCapacity(deletes.count)
        // Read in place until a delete needs settling: a copy of each retains and releases its fields.
        for index in deletes.indices {
            guard let rowID = deletes[index].id.rowID else {
                outcome.deletes.append(.unchanged)
                continue
            }
            if try deletedInBulk[index] ?? rows.deleteRow(of: deletes[index].entity, rowID: rowID, version: deletes[index].version) {
                deleted.append(deletes[index].id)
                outcome.deletes.append(.removed)
                continue
            }
            let delete = deletes[index]
            outcome.deletes.append(try settleStaleDelete(delete, stored: try rows.storedRow(id: rowID, of: delete.entity),
                                                         conflicts: &conflicts) {
                _ = try rows.deleteRow(of: delete.entity, rowID: rowID, version: nil)
                deleted.append(delete.id)
            })
        }
    }

    /// Checks the save went through, records its change-log entry and publishes its change set after the commit.
    private func finish(_ outcome: Outcome, rows: some SaveRowWriter, hub: ChangeSetHub, conflicts: [MergeConflict],
                        failures: [ValidationFailure], inserted: ObjectIDSet.Builder, updated: ObjectIDSet.Builder,
                        deleted: ObjectIDSet.Builder, changedAttributes: [String: Set<String>]) throws -> Outcome {
        var outcome = outcome
        var (inserted, updated, deleted) = (inserted, updated, deleted)
        if !conflicts.isEmpty { throw SaveError.conflicts(conflicts) }
        if !failures.isEmpty { throw SaveError.validation(failures) }
        let (insertedIDs, updatedIDs, deletedIDs) = (inserted.build(), updated.build(), deleted.build())
        if !(insertedIDs.isEmpty && updatedIDs.isEmpty && deletedIDs.isEmpty) {
            let payload = ChangeLogPayload.text(inserted: insertedIDs, updated: updatedIDs, deleted: deletedIDs, changedAttributes: changedAttributes)
            let timestamp = Date()
            let sequence = try rows.recordChanges(payload, author: author, origin: origin, timestamp: timestamp)
            var changeSet = ChangeSet(sequence: sequence, author: author, timestamp: timestamp, inserted: insertedIDs,
                                      updated: updatedIDs, deleted: deletedIDs, changedAttributes: changedAttributes)
            changeSet.originContext = origin.context
            outcome.changeSet = changeSet
            let published = changeSet
            rows.afterCommit { hub.publish(published) }
        }
        return outcome
    }

    private static func failure(_ id: ObjectID, _ entity: EntityDescription, constraint: [String],
                                values: ContiguousArray<AttributeValue>) -> ValidationFailure {
        ValidationFailure(objectID: id, reason: .uniquenessViolation(
            attributes: constraint, values: constraint.compactMap { entity.attributePositions[$0].map { values[$0] } }))
    }

    /// Below this many rows of an entity, one write per row costs no more than a statement for them all.
    private static let bulkThreshold = 4

    /// The positions below `count` grouped by entity, in order, for the entities with at least ``bulkThreshold``.
    /// Entities are told apart by the identity of their ``EntityRef``, one per entity in a save: no name is hashed
    /// or compared, and no reference is retained per row.
    private static func groups(count: Int, entity: (Int) -> ObjectIdentifier, where included: (Int) -> Bool) -> [[Int]] {
        var groups: [[Int]] = []
        var groupOfEntity: [ObjectIdentifier: Int] = [:]
        // Rows of one entity come in runs: the group of the previous row answers most of them without hashing.
        var previous: (entity: ObjectIdentifier, group: Int)?
        for index in 0..<count where included(index) {
            let key = entity(index)
            if let previous, previous.entity == key {
                groups[previous.group].append(index)
                continue
            }
            let group = groupOfEntity[key] ?? groups.count
            if group == groups.count {
                groupOfEntity[key] = group
                groups.append([])
            }
            groups[group].append(index)
            previous = (key, group)
        }
        return groups.filter { $0.count >= bulkThreshold }
    }

    /// The new rows of each entity with several, in one go: the id of each insert written so, `nil` for the others.
    /// An entity's rows go in all together or not at all: when a key is taken, they go one by one below, since how
    /// the policy settles a clash may change what the rows after it meet.
    /// Inserts in `skipping` were written already; references in the others are resolved through `rowIDs`.
    private func insertInBulk(rows: some SaveRowWriter, skipping: [Bool], resolving rowIDs: [UInt64: Int64]) throws -> [Int64?] {
        var ids = [Int64?](repeating: nil, count: inserts.count)
        for group in Self.groups(count: inserts.count, entity: { ObjectIdentifier(inserts[$0].entityRef) }, where: { !skipping[$0] }) {
            var written: [Int64?] = []
            let values = group.map { index in
                rowIDs.isEmpty ? inserts[index].values : Self.resolving(inserts[index].values, of: inserts[index].entity, rowIDs: rowIDs)
            }
            guard try rows.undoingUnless({
                written = try rows.insertRows(values, of: inserts[group[0]].entity)
                return !written.contains(nil)
            }) else { continue }
            for (index, id) in zip(group, written) { ids[index] = id }
        }
        return ids
    }

    /// The first write of the updates of each entity with several, in one go, for those that leave the attributes of
    /// every uniqueness constraint alone (no other write can make them clash, nor they another): whether each was
    /// written (`false`: stale), `nil` for the updates left to write one by one.
    private func updateInBulk(rows: some SaveRowWriter) throws -> [Bool?] {
        var written = [Bool?](repeating: nil, count: updates.count)
        let eligible = { (update: Update) -> Bool in
            guard update.id.rowID != nil else { return false }
            let unique = Set(update.entity.uniquenessConstraints.joined())
            return !update.values.indices.contains { update.values[$0] != update.readValues[$0] && unique.contains(update.entity.storedAttributes[$0].name) }
        }
        for group in Self.groups(count: updates.count, entity: { ObjectIdentifier(updates[$0].entityRef) }, where: { eligible(updates[$0]) }) {
            // Every update in a group has a row id (`eligible`): the batch's positions are the group's.
            let batch = group.compactMap { index in updates[index].id.rowID.map { (rowID: $0, version: updates[index].version, values: updates[index].values) } }
            let results = try rows.updateRows(batch, of: updates[group[0]].entity)
            for (index, wasWritten) in zip(group, results) { written[index] = wasWritten }
        }
        return written
    }

    /// The deletes of each entity with several, in one go: whether each row was deleted (`false`: it has another
    /// version, or is gone), `nil` for the deletes left to write one by one.
    private func deleteInBulk(rows: some SaveRowWriter) throws -> [Bool?] {
        var deleted = [Bool?](repeating: nil, count: deletes.count)
        for group in Self.groups(count: deletes.count, entity: { ObjectIdentifier(deletes[$0].entityRef) }, where: { deletes[$0].id.rowID != nil }) {
            // Every delete in a group has a row id: the batch's positions are the group's.
            let batch = group.compactMap { index in deletes[index].id.rowID.map { (rowID: $0, version: deletes[index].version) } }
            let results = try rows.deleteRows(batch, of: deletes[group[0]].entity)
            for (index, wasDeleted) in zip(group, results) { deleted[index] = wasDeleted }
        }
        return deleted
    }

    /// One update under the merge policy; `written` is the outcome of its first
    /// write when that was made in bulk.
    private func writeUpdate(_ update: Update, rowID: Int64, rows: some SaveRowWriter, written: Bool?,
                             conflicts: inout [MergeConflict], failures: inout [ValidationFailure]) throws -> ([String], Result) {
        let entity = update.entity
        let changedNames = update.values.indices.filter { update.values[$0] != update.readValues[$0] }.map { entity.storedAttributes[$0].name }
        func write(_ values: ContiguousArray<AttributeValue>, over version: Int64) throws -> Bool {
            switch try rows.updateRow(values, of: entity, rowID: rowID, version: version) {
            case .written: return true
            case .stale: return false
            case .uniqueKeyTaken:
                failures.append(ValidationFailure(objectID: update.id, reason: .uniquenessViolation(
                    attributes: changedNames, values: changedNames.compactMap { entity.attributePositions[$0].map { values[$0] } })))
                return true
            }
        }
        if try written ?? write(update.values, over: update.version) {
            return (changedNames, .written(Written(values: update.values, version: update.version + 1)))
        }
        return try settleStaleUpdate(update, stored: try rows.storedRow(id: rowID, of: entity).map { ($0.0, $0.1) },
                                     conflicts: &conflicts, write: write)
    }
}

extension StoreOrigin {
    /// The process that wrote a change, as the change log records it.
    package var processToken: String { process }
}

extension SaveRowWriter {
    /// ``undoingUnless(_:)`` through an SQL savepoint, as SQLite and PostgreSQL both spell it; `execute` runs one
    /// statement of the transaction.
    ///
    /// ```swift
    /// func undoingUnless(_ body: () throws -> Bool) throws -> Bool { try undoingUnless(body) { try db.run($0) } }
    /// ```
    package func undoingUnless(_ body: () throws -> Bool, executing execute: (String) throws -> Void) throws -> Bool {
        try execute("SAVEPOINT stillpoint_attempt")
        guard try body() else {
            try execute("ROLLBACK TO SAVEPOINT stillpoint_attempt")
            try execute("RELEASE SAVEPOINT stillpoint_attempt")
            return false
        }
        try execute("RELEASE SAVEPOINT stillpoint_attempt")
        return true
    }

    /// Records a batch's changed rows of `entityName` in the change log, publishes its change set on `hub` once
    /// the transaction commits, and returns the batch's result (no entry when nothing changed).
    package func recordBatch(entityName: String, inserted: [Int64], updated: [Int64], deleted: [Int64],
                             changedAttributes: Set<String>, author: String, origin: StoreOrigin, hub: ChangeSetHub) throws -> BatchResult {
        let (insertedIDs, updatedIDs, deletedIDs) = (ObjectIDSet(entityName: entityName, rowIDs: inserted),
                                                     ObjectIDSet(entityName: entityName, rowIDs: updated),
                                                     ObjectIDSet(entityName: entityName, rowIDs: deleted))
        let ids = insertedIDs.union(updatedIDs).union(deletedIDs)
        guard !ids.isEmpty else { return BatchResult(count: 0, objectIDs: [], changeSet: nil) }
        let attributes = changedAttributes.isEmpty ? [:] : [entityName: changedAttributes]
        let payload = ChangeLogPayload.text(inserted: insertedIDs, updated: updatedIDs, deleted: deletedIDs, changedAttributes: attributes)
        let timestamp = Date()
        let sequence = try recordChanges(payload, author: author, origin: origin, timestamp: timestamp)
        var changeSet = ChangeSet(sequence: sequence, author: author, timestamp: timestamp, inserted: insertedIDs,
                                  updated: updatedIDs, deleted: deletedIDs, changedAttributes: attributes)
        changeSet.originContext = origin.context
        let published = changeSet
        afterCommit { hub.publish(published) }
        return BatchResult(count: ids.count, objectIDs: ids, changeSet: changeSet)
    }
}

extension AttributeDescription {
    /// The value a row gets for an attribute it does not name: the default, or NULL.
    package var valueWhenUnset: AttributeValue { initialValue }
}

extension ObjectID {
    /// A new temporary ID of `entity`, for a row that has none yet.
    package static func temporaryID(of entity: EntityDescription) -> ObjectID {
        .temporary(entityName: entity.name)
    }
}

extension ValidationFailure {
    /// An object whose values for `attributes` repeat a stored row's unique key.
    package static func uniquenessViolation(of objectID: ObjectID, attributes: [String], values: [AttributeValue]) -> ValidationFailure {
        ValidationFailure(objectID: objectID, reason: .uniquenessViolation(attributes: attributes, values: values))
    }
}
