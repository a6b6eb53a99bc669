import Foundation

/// An import batch written through a store's single-row writes (``SaveRowWriter``), for stores without a fast
/// path of their own: the same passes as SQLite's (insert what is new, one look-up for the keys that met stored
/// rows, then each of those rows in order against what is stored), the change log in the same transaction.
extension ImportBatch {
    private struct Stored {
        let rowID: Int64
        var values: ContiguousArray<AttributeValue>
        var version: Int64
    }

    /// Writes the batch in the caller's transaction; its change set is published on `hub` once it commits.
    package func run(rows writer: some SaveRowWriter, hub: ChangeSetHub) throws -> Result {
        var result = Result()
        var inserted: [Int64] = []
        var updated: [Int64] = []
        var changedNames: Set<String> = []
        let entityName = entity.name
        let keyIsUnique = entity.uniquenessConstraints.contains { Set($0) == Set(plan.key) }

        func newRow(_ row: ImportPlan.Row) -> ContiguousArray<AttributeValue> {
            var values = plan.initialValues
            for (position, value) in row.values { values[position] = value }
            return values
        }
        func refused(_ values: ContiguousArray<AttributeValue>, rowID: Int64?) throws -> any Error {
            let clash = try writer.rowHolding(uniqueKeyOf: values, entity: entity, excluding: rowID)
            let constraint = clash?.constraint ?? []
            return SaveError.validation([.uniquenessViolation(
                of: rowID.map { ObjectID(entityName: entityName, rowID: $0) } ?? .temporary(entityName: entityName),
                attributes: constraint,
                values: constraint.compactMap { name in entity.attributes.firstIndex { $0.name == name }.map { clash?.values[$0] ?? .null } })])
        }

        // First pass: insert what is new (a taken key leaves the row for the second pass), when the key is unique.
        var later: [Int] = []
        if keyIsUnique {
            var laterKeys: Set<[AttributeValue]> = []
            for index in rows.indices {
                let row = rows[index]
                if !laterKeys.isEmpty, laterKeys.contains(row.key) {
                    later.append(index)
                    continue
                }
                if plan.insertIssue(for: row) == nil, let rowID = try writer.insertRow(newRow(row), of: entity) {
                    inserted.append(rowID)
                    result.inserted += 1
                } else {
                    later.append(index)
                    laterKeys.insert(row.key)
                }
            }
        } else {
            later = Array(rows.indices)
        }

        // Second pass: one look-up for every key set aside, then each row in order against what is stored.
        if !later.isEmpty {
            result.lookedUp = true
            var stored: [[AttributeValue]: Stored] = [:]
            for found in try writer.rows(of: entity, keyedBy: plan.key, among: later.map { rows[$0].key }) {
                stored[plan.keyPositions.map { found.values[$0] }] = Stored(rowID: found.id, values: found.values, version: found.version)
            }
            for index in later {
                let row = rows[index]
                if var existing = stored[row.key] {
                    var changed = false
                    var provenanceChanged = false
                    for (position, value) in row.values where existing.values[position] != value {
                        existing.values[position] = value
                        changedNames.insert(entity.attributes[position].name)
                        if position == plan.provenancePosition { provenanceChanged = true } else { changed = true }
                    }
                    guard changed || provenanceChanged else {
                        result.unchanged += 1
                        continue
                    }
                    guard try writer.updateRow(existing.values, of: entity, rowID: existing.rowID, version: existing.version) == .written else {
                        throw try refused(existing.values, rowID: existing.rowID)
                    }
                    existing.version += 1
                    stored[row.key] = existing
                    updated.append(existing.rowID)
                    if changed { result.updated += 1 } else { result.unchanged += 1 }
                } else if let issue = plan.insertIssue(for: row) {
                    result.skipped.append(issue)
                } else {
                    let values = newRow(row)
                    guard let rowID = try writer.insertRow(values, of: entity) else { throw try refused(values, rowID: nil) }
                    inserted.append(rowID)
                    stored[row.key] = Stored(rowID: rowID, values: values, version: 1)
                    result.inserted += 1
                }
            }
        }

        guard !(inserted.isEmpty && updated.isEmpty) else { return result }
        // A row inserted earlier in this batch stays an insert in the change set.
        let insertedSet = Set(inserted)
        let batch = try writer.recordBatch(entityName: entityName, inserted: inserted, updated: updated.filter { !insertedSet.contains($0) },
                                           deleted: [], changedAttributes: changedNames, author: author, origin: origin, hub: hub)
        result.changeSet = batch.changeSet
        return result
    }
}
