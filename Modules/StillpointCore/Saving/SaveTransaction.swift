import Foundation
import GRDB
import GRDBSQLite

/// One save, as Sendable data: what to write, and the rule for conflicts. It runs in one write transaction on
/// the store's writer, whichever context asked for it.
struct SaveTransaction: Sendable {
    struct Insert: Sendable {
        let id: ObjectID
        let entity: EntityDescription
        let values: ContiguousArray<AttributeValue>
    }

    struct Update: Sendable {
        let id: ObjectID
        let entity: EntityDescription
        let values: ContiguousArray<AttributeValue>
        /// The values the context read, to tell which attributes changed on either side.
        let readValues: ContiguousArray<AttributeValue>
        let version: Int64
    }

    struct Delete: Sendable {
        let id: ObjectID
        let entity: EntityDescription
        let version: Int64
        let readValues: ContiguousArray<AttributeValue>
    }

    /// What the store holds for an object after the save.
    struct Written: Sendable {
        let values: ContiguousArray<AttributeValue>
        let version: Int64
    }

    struct Outcome: Sendable {
        var permanentIDs: [ObjectID: ObjectID] = [:]
        var written: [ObjectID: Written] = [:]
        /// Objects whose rows no longer exist after the save.
        var removed: Set<ObjectID> = []
        var changeSet: ChangeSet?
    }

    let author: String
    var inserts: [Insert] = []
    var updates: [Update] = []
    var deletes: [Delete] = []
    let defaultPolicy: MergePolicy
    let entityPolicies: [String: MergePolicy]

    var isEmpty: Bool { inserts.isEmpty && updates.isEmpty && deletes.isEmpty }

    private func policy(_ entity: EntityDescription) -> MergePolicy { entityPolicies[entity.name] ?? defaultPolicy }

    /// Writes everything, resolving conflicts by the merge policies; throws, changing nothing, when a conflict
    /// falls under the `error` policy or an object breaks a uniqueness constraint.
    func run(in db: Database, hub: ChangeSetHub) throws -> Outcome {
        var outcome = Outcome()
        var conflicts: [MergeConflict] = []
        var failures: [ValidationFailure] = []
        var inserted: Set<ObjectID> = [], updated: Set<ObjectID> = [], deleted: Set<ObjectID> = []
        var changedAttributes: [String: Set<String>] = [:]

        for insert in inserts {
            do {
                try db.run(Self.insertSQL(insert.entity), insert.values)
                let id = ObjectID(entityName: insert.entity.name, rowID: db.lastInsertedRowID)
                outcome.permanentIDs[insert.id] = id
                outcome.written[insert.id] = Written(values: insert.values, version: 1)
                inserted.insert(id)
            } catch let failure as SQLiteFailure where failure.isUniquenessViolation {
                guard let (existingID, stored) = try existingRow(clashingWith: insert, in: db) else { throw failure }
                switch policy(insert.entity) {
                case .error:
                    let constraint = insert.entity.uniquenessConstraints.first { names in
                        names.allSatisfy { insert.values[insert.entity.attributePositions[$0]!] == stored.values[insert.entity.attributePositions[$0]!] }
                    } ?? []
                    failures.append(ValidationFailure(objectID: insert.id, reason: .uniquenessViolation(
                        attributes: constraint, values: constraint.map { insert.values[insert.entity.attributePositions[$0]!] })))
                case .mergeByPropertyObjectTrump, .overwrite:
                    try db.run(Self.updateSQL(insert.entity), insert.values + [.integer(existingID), .integer(stored.version)])
                    outcome.permanentIDs[insert.id] = ObjectID(entityName: insert.entity.name, rowID: existingID)
                    outcome.written[insert.id] = Written(values: insert.values, version: stored.version + 1)
                    updated.insert(ObjectID(entityName: insert.entity.name, rowID: existingID))
                    changedAttributes[insert.entity.name, default: []].formUnion(insert.entity.attributes.map(\.name))
                case .mergeByPropertyStoreTrump, .rollback:
                    outcome.permanentIDs[insert.id] = ObjectID(entityName: insert.entity.name, rowID: existingID)
                    outcome.written[insert.id] = stored
                }
            }
        }

        for update in updates {
            guard let rowID = update.id.rowID else { continue }
            let changed = try writeUpdate(update, rowID: rowID, in: db, outcome: &outcome, conflicts: &conflicts, failures: &failures)
            if !changed.isEmpty {
                updated.insert(update.id)
                changedAttributes[update.entity.name, default: []].formUnion(changed)
            }
        }

        for delete in deletes {
            guard let rowID = delete.id.rowID else { continue }
            let table = Store.quote(delete.entity.name)
            if try db.run("DELETE FROM \(table) WHERE \"_id\" = ? AND \"_version\" = ?", [.integer(rowID), .integer(delete.version)]) == 1 {
                deleted.insert(delete.id)
                outcome.removed.insert(delete.id)
                continue
            }
            guard let stored = try StoreRows.row(id: rowID, entity: delete.entity, in: db) else {
                outcome.removed.insert(delete.id)  // someone else deleted it already
                continue
            }
            switch policy(delete.entity) {
            case .error:
                conflicts.append(Self.conflict(delete.id, delete.entity, read: delete.readValues, object: delete.readValues,
                                               readVersion: delete.version, stored: (stored.0, stored.1)))
            case .rollback:
                outcome.written[delete.id] = Written(values: stored.0, version: stored.1)
            case .mergeByPropertyStoreTrump, .mergeByPropertyObjectTrump, .overwrite:
                try db.run("DELETE FROM \(table) WHERE \"_id\" = ?", [.integer(rowID)])
                deleted.insert(delete.id)
                outcome.removed.insert(delete.id)
            }
        }

        if !conflicts.isEmpty { throw SaveError.conflicts(conflicts) }
        if !failures.isEmpty { throw SaveError.validation(failures) }
        if !(inserted.isEmpty && updated.isEmpty && deleted.isEmpty) {
            let changeSet = try ChangeLog.record(author: author, inserted: inserted, updated: updated, deleted: deleted,
                                                 changedAttributes: changedAttributes, in: db)
            outcome.changeSet = changeSet
            // Published once committed, on the writer, so observers see change sets in commit order.
            db.afterNextTransaction(onCommit: { _ in hub.publish(changeSet) })
        }
        return outcome
    }

    /// Writes one update under the merge policy; returns the names of the attributes it changed in the store.
    private func writeUpdate(_ update: Update, rowID: Int64, in db: Database, outcome: inout Outcome,
                             conflicts: inout [MergeConflict], failures: inout [ValidationFailure]) throws -> [String] {
        let entity = update.entity
        let changedNames = update.values.indices.filter { update.values[$0] != update.readValues[$0] }.map { entity.attributes[$0].name }
        func write(_ values: ContiguousArray<AttributeValue>, over version: Int64) throws -> Bool {
            do {
                return try db.run(Self.updateSQL(entity), values + [.integer(rowID), .integer(version)]) == 1
            } catch let failure as SQLiteFailure where failure.isUniquenessViolation {
                failures.append(ValidationFailure(objectID: update.id, reason: .uniquenessViolation(
                    attributes: changedNames, values: changedNames.map { values[entity.attributePositions[$0]!] })))
                return true
            }
        }
        if try write(update.values, over: update.version) {
            outcome.written[update.id] = Written(values: update.values, version: update.version + 1)
            return changedNames
        }
        guard let (stored, storeVersion) = try StoreRows.row(id: rowID, entity: entity, in: db) else {
            if policy(entity) == .error {
                conflicts.append(Self.conflict(update.id, entity, read: update.readValues, object: update.values,
                                               readVersion: update.version, stored: nil))
            } else {
                outcome.removed.insert(update.id)
            }
            return []
        }
        var merged = update.values
        switch policy(entity) {
        case .error:
            conflicts.append(Self.conflict(update.id, entity, read: update.readValues, object: update.values,
                                           readVersion: update.version, stored: (stored, storeVersion)))
            return []
        case .rollback:
            outcome.written[update.id] = Written(values: stored, version: storeVersion)
            return []
        case .overwrite:
            break
        case .mergeByPropertyStoreTrump:
            for position in merged.indices where stored[position] != update.readValues[position] {
                merged[position] = stored[position]
            }
        case .mergeByPropertyObjectTrump:
            for position in merged.indices where update.values[position] == update.readValues[position] {
                merged[position] = stored[position]
            }
        }
        _ = try write(merged, over: storeVersion)
        outcome.written[update.id] = Written(values: merged, version: storeVersion + 1)
        return merged.indices.filter { merged[$0] != stored[$0] }.map { entity.attributes[$0].name }
    }

    /// The existing row that holds the unique values an insert tried to take.
    private func existingRow(clashingWith insert: Insert, in db: Database) throws -> (Int64, Written)? {
        let entity = insert.entity
        for constraint in entity.uniquenessConstraints {
            let condition = constraint.map { "\(Store.quote($0)) IS ?" }.joined(separator: " AND ")
            let arguments = constraint.map { insert.values[entity.attributePositions[$0]!] }
            var found: (Int64, Written)?
            try db.query("SELECT \(StoreRows.objectColumns(of: entity)) FROM \(Store.quote(entity.name)) WHERE \(condition)", arguments) { statement in
                found = (sqlite3_column_int64(statement, 0),
                         Written(values: StoreRows.values(of: entity, from: statement), version: sqlite3_column_int64(statement, 1)))
            }
            if let found { return found }
        }
        return nil
    }

    private static func conflict(_ id: ObjectID, _ entity: EntityDescription, read: ContiguousArray<AttributeValue>,
                                 object: ContiguousArray<AttributeValue>, readVersion: Int64,
                                 stored: (ContiguousArray<AttributeValue>, Int64)?) -> MergeConflict {
        let attributes = entity.attributes.indices.compactMap { position -> AttributeConflict? in
            let storeValue = stored?.0[position]
            guard object[position] != read[position] || storeValue != read[position] else { return nil }
            return AttributeConflict(name: entity.attributes[position].name, readValue: read[position],
                                     objectValue: object[position], storeValue: storeValue)
        }
        return MergeConflict(objectID: id, readVersion: readVersion, storeVersion: stored?.1, attributes: attributes)
    }

    static func insertSQL(_ entity: EntityDescription) -> String {
        let columns = entity.attributes.map { Store.quote($0.name) }.joined(separator: ", ")
        let placeholders = Array(repeating: "?", count: entity.attributes.count).joined(separator: ", ")
        guard !entity.attributes.isEmpty else { return "INSERT INTO \(Store.quote(entity.name)) DEFAULT VALUES" }
        return "INSERT INTO \(Store.quote(entity.name)) (\(columns)) VALUES (\(placeholders))"
    }

    static func updateSQL(_ entity: EntityDescription) -> String {
        let assignments = entity.attributes.map { "\(Store.quote($0.name)) = ?" }.joined(separator: ", ")
        return "UPDATE \(Store.quote(entity.name)) SET \(assignments), \"_version\" = \"_version\" + 1 WHERE \"_id\" = ? AND \"_version\" = ?"
    }
}
