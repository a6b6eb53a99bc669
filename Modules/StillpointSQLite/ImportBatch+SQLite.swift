import Foundation
import GRDB
import GRDBSQLite
import StillpointCore

/// An import batch written to SQLite: prepared INSERT, `INSERT ... ON CONFLICT DO NOTHING` and UPDATE
/// statements, one `IN` look-up for the rows that meet stored keys, the change log in the same transaction.
extension ImportBatch {
    /// A stored row as the batch knows it: looked up, inserted or updated by an earlier row of the batch.
    private struct Stored {
        let rowID: Int64
        var values: ContiguousArray<AttributeValue>
        var version: Int64
    }

    /// Writes the batch in the caller's write transaction and records its change set, published once the
    /// transaction commits.
    func run(in db: Database, hub: ChangeSetHub) throws -> Result {
        var result = Result()
        var inserted: [Int64] = []
        inserted.reserveCapacity(rows.count)
        var updated: [Int64] = []
        var changedNames: Set<String> = []
        let entityName = entity.name

        // First pass: insert what is new, set aside what needs the stored row.
        var later: [Int] = []
        if let upsert = try upsertStatement(in: db) {
            var laterKeys: Set<[AttributeValue]> = []
            var values = ContiguousArray<AttributeValue>()
            for index in rows.indices {
                let row = rows[index]
                // A key already set aside keeps its rows in order: each is applied over the one before.
                if !laterKeys.isEmpty, laterKeys.contains(row.key) {
                    later.append(index)
                    continue
                }
                guard plan.insertIssue(for: row) == nil else {
                    later.append(index)
                    laterKeys.insert(row.key)
                    continue
                }
                fill(&values, with: row)
                if try write(upsert, values: values, in: db) == 1 {
                    inserted.append(db.lastInsertedRowIDUnchecked)
                    result.metRowIDs.append(db.lastInsertedRowIDUnchecked)
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
            var stored = try lookUp(later.map { rows[$0].key }, in: db)
            let insert = try db.cachedStatement(sql: SaveTransaction.insertSQL(entity))
            let update = try db.cachedStatement(sql: SaveTransaction.updateSQL(entity))
            var values = ContiguousArray<AttributeValue>()
            for index in later {
                let row = rows[index]
                if var existing = stored[row.key] {
                    result.metRowIDs.append(existing.rowID)
                    var changed = false
                    var provenanceChanged = false
                    for (position, value) in row.values where existing.values[position] != value {
                        existing.values[position] = value
                        changedNames.insert(entity.storedAttributes[position].name)
                        if position == plan.provenancePosition { provenanceChanged = true } else { changed = true }
                    }
                    guard changed || provenanceChanged else {
                        result.unchanged += 1
                        continue
                    }
                    try write(update, values: existing.values, rowID: existing.rowID, version: existing.version, in: db)
                    existing.version += 1
                    stored[row.key] = existing
                    updated.append(existing.rowID)
                    // A row written again by another import with the same values is the same session: unchanged.
                    if changed { result.updated += 1 } else { result.unchanged += 1 }
                } else if let issue = plan.insertIssue(for: row) {
                    result.skipped.append(issue)
                } else {
                    fill(&values, with: row)
                    try write(insert, values: values, in: db)
                    let rowID = db.lastInsertedRowIDUnchecked
                    inserted.append(rowID)
                    result.metRowIDs.append(rowID)
                    stored[row.key] = Stored(rowID: rowID, values: values, version: 1)
                    result.inserted += 1
                }
            }
        }

        guard !(inserted.isEmpty && updated.isEmpty) else { return result }
        let insertedIDs = ObjectIDSet(entityName: entityName, rowIDs: inserted)
        // A row inserted earlier in this batch stays an insert in the change set.
        let updatedIDs = ObjectIDSet(entityName: entityName, rowIDs: updated.filter {
            !insertedIDs.contains(ObjectID(entityName: entityName, rowID: $0))
        })
        let changeSet = try ChangeLog.record(
            author: author, origin: origin, inserted: insertedIDs, updated: updatedIDs, deleted: [],
            changedAttributes: changedNames.isEmpty ? [:] : [entityName: changedNames], in: db)
        result.changeSet = changeSet
        // Published once committed, on the writer, so observers see change sets in commit order.
        db.afterNextTransaction(onCommit: { _ in hub.publish(changeSet) })
        return result
    }

    /// `INSERT ... ON CONFLICT (key) DO NOTHING`, when the key is one of the entity's uniqueness constraints
    /// and the table has its unique index; `nil` otherwise.
    private func upsertStatement(in db: Database) throws -> Statement? {
        let key = Set(plan.key)
        guard let constraint = entity.uniquenessConstraints.first(where: { Set($0) == key }) else { return nil }
        let sql = SaveTransaction.insertSQL(entity) + " ON CONFLICT (\(constraint.map(Store.quote).joined(separator: ", "))) DO NOTHING"
        // A store made before the index existed has no such constraint: SQLite refuses the statement then.
        return try? db.cachedStatement(sql: sql)
    }

    /// The stored rows with these keys, by key: one query, each key attribute narrowed by an `IN` list (a
    /// superset for a composite key, which the exact match by key sorts out).
    private func lookUp(_ keys: [[AttributeValue]], in db: Database) throws -> [[AttributeValue]: Stored] {
        var conditions: [String] = []
        var arguments: [AttributeValue] = []
        for (offset, name) in plan.key.enumerated() {
            let values = Set(keys.map { $0[offset] })
            conditions.append("\(Store.quote(name)) IN (\(Array(repeating: "?", count: values.count).joined(separator: ", ")))")
            arguments += values
        }
        let sql = "SELECT \(StoreRows.objectColumns(of: entity)) FROM \(Store.quote(entity.name)) WHERE "
            + conditions.joined(separator: " AND ")
        var stored: [[AttributeValue]: Stored] = [:]
        stored.reserveCapacity(keys.count)
        let entity = self.entity
        let keyPositions = plan.keyPositions
        // A statement of its own: the IN lists change size from batch to batch.
        try db.query(try db.makeStatement(sql: sql), arguments) { statement in
            let values = try StoreRows.values(of: entity, from: statement)
            stored[keyPositions.map { values[$0] }] = Stored(rowID: sqlite3_column_int64(statement, 0), values: values,
                                                             version: sqlite3_column_int64(statement, 1))
        }
        return stored
    }

    /// Every attribute of a new row: the record's values over the attributes' defaults.
    private func fill(_ values: inout ContiguousArray<AttributeValue>, with row: ImportPlan.Row) {
        values.removeAll(keepingCapacity: true)
        values.append(contentsOf: plan.initialValues)
        for (position, value) in row.values { values[position] = value }
    }

    /// Runs an INSERT or UPDATE and returns the number of rows it changed; a broken uniqueness constraint (other
    /// than the key's, which the look-up rules out) fails the batch as a save would.
    @discardableResult
    private func write(_ statement: Statement, values: ContiguousArray<AttributeValue>, rowID: Int64? = nil,
                       version: Int64? = nil, in db: Database) throws -> Int {
        do {
            return try db.run(statement, values: values, rowID: rowID, version: version)
        } catch let failure as SQLiteFailure where failure.isUniquenessViolation {
            guard let clash = try UniqueKeyClash(values: values, entity: entity, in: db, excluding: rowID) else { throw failure }
            throw SaveError.validation([clash.failure(of: rowID.map { ObjectID(entityName: entity.name, rowID: $0) } ?? .temporary(entityName: entity.name))])
        }
    }
}
