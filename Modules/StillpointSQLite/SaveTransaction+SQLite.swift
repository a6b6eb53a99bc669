import Foundation
import GRDB
import GRDBSQLite
import StillpointCore

/// A save written to SQLite: prepared statements per entity, uniqueness clashes read back after SQLite refuses
/// a row, the change log in the same transaction.
extension SaveTransaction {
    /// Writes everything, resolving conflicts by the merge policies; throws, changing nothing, when a conflict
    /// falls under the `error` policy or an object breaks a uniqueness constraint.
    func run(in db: Database, hub: ChangeSetHub) throws -> Outcome {
        var outcome = Outcome()
        var conflicts: [MergeConflict] = []
        var failures: [ValidationFailure] = []
        var inserted = ObjectIDSet.Builder(), updated = ObjectIDSet.Builder(), deleted = ObjectIDSet.Builder()
        var changedAttributes: [String: Set<String>] = [:]
        var statements = SaveStatements(db: db)
        outcome.inserts.reserveCapacity(inserts.count)
        outcome.updates.reserveCapacity(updates.count)
        outcome.deletes.reserveCapacity(deletes.count)

        // References to objects this save inserts become row ids as their rows are written (inserts come after
        // what they refer to).
        let resolvesReferences = refersToUnsavedObjects
        var rowIDs: [UInt64: Int64] = [:]
        // The loops read rows in place (`inserts[index].values`) rather than copying each row out: a copy retains
        // and releases every field, the entity description's included, which a large save feels.
        for index in inserts.indices {
            let resolved = resolvesReferences ? Self.resolving(inserts[index].values, of: inserts[index].entity, rowIDs: rowIDs) : nil
            do {
                let entityRef = inserts[index].entityRef
                try db.run(try statements.statement(.insert, for: entityRef), values: resolved ?? inserts[index].values)
                let id = ObjectID(entityName: entityRef.entity.name, rowID: db.lastInsertedRowIDUnchecked)
                if let number = inserts[index].id.temporaryNumber, resolvesReferences { rowIDs[number] = db.lastInsertedRowIDUnchecked }
                outcome.inserts.append(InsertResult(id: id, merged: nil, resolvedValues: resolved))
                inserted.append(id)
            } catch let failure as SQLiteFailure where failure.isUniquenessViolation {
                var insert = inserts[index]
                if let resolved { insert = Insert(id: insert.id, entityRef: insert.entityRef, values: resolved) }
                guard let clash = try UniqueKeyClash(values: insert.values, entity: insert.entity, in: db) else { throw failure }
                let (existingID, stored) = (clash.id, Written(values: clash.values, version: clash.version))
                let existing = ObjectID(entityName: insert.entity.name, rowID: existingID)
                if let number = insert.id.temporaryNumber, resolvesReferences { rowIDs[number] = existingID }
                switch policy(insert.entity) {
                case .error:
                    failures.append(clash.failure(of: insert.id))
                    outcome.inserts.append(nil)
                case .mergeByPropertyObjectTrump, .overwrite:
                    do {
                        try db.run(try statements.statement(.update, for: insert.entityRef), values: insert.values,
                                   rowID: existingID, version: stored.version)
                    } catch let failure as SQLiteFailure where failure.isUniquenessViolation {
                        // Its values also repeat another row's key: two rows cannot become one.
                        guard let other = try UniqueKeyClash(values: insert.values, entity: insert.entity, in: db, excluding: existingID) else { throw failure }
                        failures.append(other.failure(of: insert.id))
                        outcome.inserts.append(nil)
                        continue
                    }
                    outcome.inserts.append(InsertResult(id: existing, merged: Written(values: insert.values, version: stored.version + 1)))
                    updated.append(existing)
                    changedAttributes[insert.entity.name, default: []].formUnion(insert.entity.storedAttributes.map(\.name))
                case .mergeByPropertyStoreTrump, .rollback:
                    outcome.inserts.append(InsertResult(id: existing, merged: stored))
                }
            }
        }

        for update in resolvesReferences ? resolvingUpdates(rowIDs).updates : updates {
            guard let rowID = update.id.rowID else {
                outcome.updates.append(.unchanged)
                continue
            }
            let (changed, result) = try writeUpdate(update, rowID: rowID, in: db, statements: &statements,
                                                    conflicts: &conflicts, failures: &failures)
            outcome.updates.append(result)
            if !changed.isEmpty {
                updated.append(update.id)
                changedAttributes[update.entity.name, default: []].formUnion(changed)
            }
        }

        for index in deletes.indices {
            guard let rowID = deletes[index].id.rowID else {
                outcome.deletes.append(.unchanged)
                continue
            }
            if try db.run(try statements.statement(.delete, for: deletes[index].entityRef), values: [], rowID: rowID,
                          version: deletes[index].version) == 1 {
                deleted.append(deletes[index].id)
                outcome.deletes.append(.removed)
                continue
            }
            let delete = deletes[index]
            let stored = try StoreRows.row(id: rowID, entity: delete.entity, in: db)
            outcome.deletes.append(try settleStaleDelete(delete, stored: stored.map { ($0.0, $0.1) }, conflicts: &conflicts) {
                try db.run(try statements.statement(.deleteAnyVersion, for: delete.entityRef), values: [], rowID: rowID)
                deleted.append(delete.id)
            })
        }

        if !conflicts.isEmpty { throw SaveError.conflicts(conflicts) }
        if !failures.isEmpty { throw SaveError.validation(failures) }
        let (insertedIDs, updatedIDs, deletedIDs) = (inserted.build(), updated.build(), deleted.build())
        if !(insertedIDs.isEmpty && updatedIDs.isEmpty && deletedIDs.isEmpty) {
            let changeSet = try ChangeLog.record(author: author, origin: origin, inserted: insertedIDs, updated: updatedIDs,
                                                 deleted: deletedIDs, changedAttributes: changedAttributes, in: db)
            outcome.changeSet = changeSet
            // Published once committed, on the writer, so observers see change sets in commit order.
            db.afterNextTransaction(onCommit: { _ in hub.publish(changeSet) })
        }
        return outcome
    }

    /// Writes one update under the merge policy; returns the names of the attributes it changed in the store,
    /// and what the object should become.
    private func writeUpdate(_ update: Update, rowID: Int64, in db: Database, statements: inout SaveStatements,
                             conflicts: inout [MergeConflict], failures: inout [ValidationFailure]) throws -> ([String], Result) {
        let entity = update.entity
        let changedNames = update.values.indices.filter { update.values[$0] != update.readValues[$0] }.map { entity.storedAttributes[$0].name }
        let statement = try statements.statement(.update, for: update.entityRef)
        func write(_ values: ContiguousArray<AttributeValue>, over version: Int64) throws -> Bool {
            do {
                return try db.run(statement, values: values, rowID: rowID, version: version) == 1
            } catch let failure as SQLiteFailure where failure.isUniquenessViolation {
                failures.append(ValidationFailure(objectID: update.id, reason: .uniquenessViolation(
                    attributes: changedNames, values: changedNames.map { values[entity.attributePositions[$0]!] })))  // swiftlint:disable:this force_unwrapping: names from the schema
                return true
            }
        }
        if try write(update.values, over: update.version) {
            return (changedNames, .written(Written(values: update.values, version: update.version + 1)))
        }
        return try settleStaleUpdate(update, stored: try StoreRows.row(id: rowID, entity: entity, in: db).map { ($0.0, $0.1) },
                                     conflicts: &conflicts, write: write)
    }

    static func insertSQL(_ entity: EntityDescription) -> String {
        let columns = entity.storedAttributes.map { Store.quote($0.name) }.joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: entity.storedAttributes.count).joined(separator: ", ")
        guard !entity.storedAttributes.isEmpty else { return "INSERT INTO \(Store.quote(entity.name)) DEFAULT VALUES" }
        return "INSERT INTO \(Store.quote(entity.name)) (\(columns)) VALUES (\(placeholders))"
    }

    static func updateSQL(_ entity: EntityDescription) -> String {
        let assignments = entity.storedAttributes.map { "\(Store.quote($0.name)) = ?" }.joined(separator: ", ")
        return "UPDATE \(Store.quote(entity.name)) SET \(assignments), \"_version\" = \"_version\" + 1 WHERE \"_id\" = ? AND \"_version\" = ?"
    }

    /// `DELETE ... WHERE _id = ? AND _version = ?`, or without the version check.
    static func deleteSQL(_ entity: EntityDescription, checkingVersion: Bool) -> String {
        "DELETE FROM \(Store.quote(entity.name)) WHERE \"_id\" = ?" + (checkingVersion ? " AND \"_version\" = ?" : "")
    }
}

/// The INSERT, UPDATE and DELETE statements of one save, each prepared once per entity instead of built and
/// looked up for every row: the hot path of large saves.
private struct SaveStatements {
    enum Kind: Hashable {
        case insert, update, delete, deleteAnyVersion
    }

    private struct Key: Hashable {
        let kind: Kind
        let entity: String
    }

    let db: Database
    private var statements: [Key: Statement] = [:]
    /// The statement asked for last: rows of one entity come in runs, so this answers almost every call.
    private var last: (kind: Kind, entityRef: SaveTransaction.EntityRef, statement: Statement)?

    init(db: Database) {
        self.db = db
    }

    mutating func statement(_ kind: Kind, for entityRef: SaveTransaction.EntityRef) throws -> Statement {
        if let last, last.entityRef === entityRef, last.kind == kind { return last.statement }
        let entity = entityRef.entity
        let key = Key(kind: kind, entity: entity.name)
        let statement: Statement
        if let cached = statements[key] {
            statement = cached
        } else {
            let sql: String
            switch kind {
            case .insert: sql = SaveTransaction.insertSQL(entity)
            case .update: sql = SaveTransaction.updateSQL(entity)
            case .delete: sql = SaveTransaction.deleteSQL(entity, checkingVersion: true)
            case .deleteAnyVersion: sql = SaveTransaction.deleteSQL(entity, checkingVersion: false)
            }
            statement = try db.cachedStatement(sql: sql)
            statements[key] = statement
        }
        last = (kind, entityRef, statement)
        return statement
    }
}
