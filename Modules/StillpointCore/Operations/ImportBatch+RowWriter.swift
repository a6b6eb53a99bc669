import Foundation

/// An import batch written through a store's row writes (``SaveRowWriter``), on every store: insert what is new,
/// one look-up for the keys that met stored rows, then each of those rows in order against what is stored, the
/// change log in the same transaction. New rows go in together (``SaveRowWriter/insertRows(_:of:)``: prepared
/// statements on SQLite, `COPY` on PostgreSQL), in the order and with the outcome that one insert per row would have.
extension ImportBatch {
    private struct Stored {
        let rowID: Int64
        var values: ContiguousArray<AttributeValue>
        var version: Int64
    }

    /// The row an update of the second pass in bulk writes: a stored row (by id) or a new row of the pass (by its
    /// place among the new rows, whose ids come with their insert).
    private enum Target {
        case stored(Int64)
        case new(Int)
    }

    /// What the second pass did, kept apart until it is known to stand.
    private struct SecondPass {
        var inserted = 0
        var updated = 0
        var unchanged = 0
        var skipped: [ImportRecordIssue] = []
        var insertedIDs: [Int64] = []
        var updatedIDs: [Int64] = []
        /// Every record the pass stored or found unchanged.
        var met: [MetRow] = []
        var changedNames: Set<String> = []
    }

    /// Writes the batch in the caller's transaction; its change set is published on `hub` once it commits.
    package func run(rows writer: some SaveRowWriter, hub: ChangeSetHub) throws -> Result {
        var result = Result()
        var inserted: [Int64] = []
        var updated: [Int64] = []
        var changedNames: Set<String> = []
        let entityName = entity.name
        let keyIsUnique = entity.uniquenessConstraints.contains { Set($0) == Set(plan.key) }

        // First pass, when the key is unique: the first row of each key goes in, all together; a taken key leaves
        // the row for the second pass. A later row of the same key would meet the first (inserted or set aside),
        // so it waits for the second pass too, as it would row by row.
        var later: [Int] = []
        if keyIsUnique {
            var seenKeys: Set<[AttributeValue]> = []
            var candidates: [Int] = []
            for index in rows.indices {
                let row = rows[index]
                if seenKeys.insert(row.key).inserted, plan.insertIssue(for: row) == nil {
                    candidates.append(index)
                } else {
                    later.append(index)
                }
            }
            let ids = try writer.insertRows(candidates.map { newRow(rows[$0]) }, of: entity)
            for (index, id) in zip(candidates, ids) {
                if let id {
                    inserted.append(id)
                    result.met.append(MetRow(rowID: id, change: .inserted, link: rows[index].link))
                    result.inserted += 1
                } else {
                    later.append(index)
                }
            }
            later.sort()
        } else {
            later = Array(rows.indices)
        }

        // Second pass: one look-up for every key set aside, then each row in order against what is stored. In bulk
        // first (new rows together, then the updates in order); should any write be refused, that is undone and the
        // pass runs again row by row, which fails where and as one write per row fails.
        if !later.isEmpty {
            result.lookedUp = true
            var stored: [[AttributeValue]: Stored] = [:]
            for found in try writer.rows(of: entity, keyedBy: plan.key, among: later.map { rows[$0].key }) {
                stored[plan.keyPositions.map { found.values[$0] }] = Stored(rowID: found.id, values: found.values, version: found.version)
            }
            var pass: SecondPass?
            _ = try writer.undoingUnless {
                pass = try secondPassInBulk(later, stored: stored, writer: writer)
                return pass != nil
            }
            let done = try pass ?? secondPassRowByRow(later, stored: stored, writer: writer)
            result.inserted += done.inserted
            result.updated += done.updated
            result.unchanged += done.unchanged
            result.skipped += done.skipped
            inserted += done.insertedIDs
            updated += done.updatedIDs
            result.met += done.met
            changedNames.formUnion(done.changedNames)
        }

        guard !(inserted.isEmpty && updated.isEmpty) else { return result }
        // A row inserted earlier in this batch stays an insert in the change set.
        let insertedSet = Set(inserted)
        let batch = try writer.recordBatch(entityName: entityName, inserted: inserted, updated: updated.filter { !insertedSet.contains($0) },
                                           deleted: [], changedAttributes: changedNames, author: author, origin: origin, hub: hub)
        result.changeSet = batch.changeSet
        return result
    }

    /// A new row's values: the defaults, then the record's.
    private func newRow(_ row: ImportPlan.Row) -> ContiguousArray<AttributeValue> {
        var values = plan.initialValues
        for (position, value) in row.values { values[position] = value }
        return values
    }

    /// The values of `row` over `existing`: whether a value other than the provenance changed, whether the
    /// provenance did; the names of the changed attributes go to `changedNames`.
    private func merge(_ row: ImportPlan.Row, into existing: inout ContiguousArray<AttributeValue>,
                       changedNames: inout Set<String>) -> (changed: Bool, provenanceChanged: Bool) {
        var changed = false
        var provenanceChanged = false
        for (position, value) in row.values where existing[position] != value {
            existing[position] = value
            changedNames.insert(entity.storedAttributes[position].name)
            if position == plan.provenancePosition { provenanceChanged = true } else { changed = true }
        }
        return (changed, provenanceChanged)
    }

    /// The second pass worked out in memory, then written as one bulk insert of the new rows and the updates in
    /// order (a new row's later records update it, as they would row by row); `nil` when a write was refused.
    private func secondPassInBulk(_ later: [Int], stored: [[AttributeValue]: Stored], writer: some SaveRowWriter) throws -> SecondPass? {
        var pass = SecondPass()
        var current = stored.mapValues { (target: Target.stored($0.rowID), values: $0.values, version: $0.version) }
        var newRows: [ContiguousArray<AttributeValue>] = []
        /// `inBulk`: the first update of a stored row that leaves every unique attribute as it was, which no other
        /// write can make clash, nor it another, so that it may go before or after them.
        var updates: [(target: Target, values: ContiguousArray<AttributeValue>, version: Int64, inBulk: Bool)] = []
        var met: [(target: Target, change: MetRow.Change, link: ObjectID?)] = []
        let uniquePositions = Set(entity.uniquenessConstraints.joined().compactMap { entity.attributePositions[$0] })
        for index in later {
            let row = rows[index]
            if var existing = current[row.key] {
                let before = existing.values
                let (changed, provenanceChanged) = merge(row, into: &existing.values, changedNames: &pass.changedNames)
                met.append((existing.target, changed ? .updated : .unchanged, row.link))
                guard changed || provenanceChanged else {
                    pass.unchanged += 1
                    continue
                }
                var inBulk = false
                if case .stored = existing.target, existing.version == stored[row.key]?.version {
                    inBulk = !uniquePositions.contains { before[$0] != existing.values[$0] }
                }
                updates.append((existing.target, existing.values, existing.version, inBulk))
                existing.version += 1
                current[row.key] = existing
                if changed { pass.updated += 1 } else { pass.unchanged += 1 }
            } else if let issue = plan.insertIssue(for: row) {
                pass.skipped.append(issue)
            } else {
                let values = newRow(row)
                met.append((.new(newRows.count), .inserted, row.link))
                current[row.key] = (.new(newRows.count), values, 1)
                newRows.append(values)
                pass.inserted += 1
            }
        }
        var ids: [Int64] = []
        for id in try writer.insertRows(newRows, of: entity) {
            guard let id else { return nil }
            ids.append(id)
        }
        pass.insertedIDs = ids
        pass.met = met.map { target, change, link in
            switch target {
            case .stored(let id): MetRow(rowID: id, change: change, link: link)
            case .new(let place): MetRow(rowID: ids[place], change: change, link: link)
            }
        }
        let bulk = updates.filter(\.inBulk).compactMap { update -> (rowID: Int64, version: Int64, values: ContiguousArray<AttributeValue>)? in
            guard case .stored(let id) = update.target else { return nil }
            return (id, update.version, update.values)
        }
        if !bulk.isEmpty {
            let written = try writer.updateRows(bulk, of: entity)
            guard written.count == bulk.count else { return nil }
            pass.updatedIDs += bulk.map(\.rowID)
        }
        for update in updates where !update.inBulk {
            let rowID: Int64
            switch update.target {
            case .stored(let id): rowID = id
            case .new(let place): rowID = ids[place]
            }
            guard try writer.updateRow(update.values, of: entity, rowID: rowID, version: update.version) == .written else { return nil }
            pass.updatedIDs.append(rowID)
        }
        return pass
    }

    /// The second pass one write per row, in order: the first refused write throws.
    private func secondPassRowByRow(_ later: [Int], stored initial: [[AttributeValue]: Stored], writer: some SaveRowWriter) throws -> SecondPass {
        var pass = SecondPass()
        var stored = initial
        let entityName = entity.name
        func refused(_ values: ContiguousArray<AttributeValue>, rowID: Int64?) throws -> any Error {
            let clash = try writer.rowHolding(uniqueKeyOf: values, entity: entity, excluding: rowID)
            let constraint = clash?.constraint ?? []
            return SaveError.validation([.uniquenessViolation(
                of: rowID.map { ObjectID(entityName: entityName, rowID: $0) } ?? .temporary(entityName: entityName),
                attributes: constraint,
                values: constraint.compactMap { name in entity.storedAttributes.firstIndex { $0.name == name }.map { clash?.values[$0] ?? .null } })])
        }
        for index in later {
            let row = rows[index]
            if var existing = stored[row.key] {
                let (changed, provenanceChanged) = merge(row, into: &existing.values, changedNames: &pass.changedNames)
                pass.met.append(MetRow(rowID: existing.rowID, change: changed ? .updated : .unchanged, link: row.link))
                guard changed || provenanceChanged else {
                    pass.unchanged += 1
                    continue
                }
                guard try writer.updateRow(existing.values, of: entity, rowID: existing.rowID, version: existing.version) == .written else {
                    throw try refused(existing.values, rowID: existing.rowID)
                }
                existing.version += 1
                stored[row.key] = existing
                pass.updatedIDs.append(existing.rowID)
                if changed { pass.updated += 1 } else { pass.unchanged += 1 }
            } else if let issue = plan.insertIssue(for: row) {
                pass.skipped.append(issue)
            } else {
                let values = newRow(row)
                guard let rowID = try writer.insertRow(values, of: entity) else { throw try refused(values, rowID: nil) }
                pass.insertedIDs.append(rowID)
                pass.met.append(MetRow(rowID: rowID, change: .inserted, link: row.link))
                stored[row.key] = Stored(rowID: rowID, values: values, version: 1)
                pass.inserted += 1
            }
        }
        return pass
    }
}
