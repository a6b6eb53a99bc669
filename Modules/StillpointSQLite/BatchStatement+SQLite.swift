import Foundation
import GRDB
import StillpointCore

/// A batch operation written to SQLite: one statement, whose changed rows SQLite's update hook reports.
extension BatchStatement {
    /// Runs the statement inside the caller's write transaction and records its change set. `policy` decides
    /// what an inserted row whose unique key is taken does, as it does for a save.
    func run(in db: Database, author: String, origin: StoreOrigin, policy: MergePolicy, hub: ChangeSetHub) throws -> BatchResult {
        let table = Store.quote(entity.name)
        var inserted: [Int64] = [], updated: [Int64] = [], deleted: [Int64] = []
        var changedAttributes: [String: Set<String>] = [:]
        switch self {
        case .delete(let request):
            let condition = try Self.whereClause(request)
            // `WHERE 1` when there is no condition: SQLite would drop the table's pages whole, unseen by the hook.
            let sql = "DELETE FROM \(table)\(request.predicate == nil ? " WHERE 1" : condition.sql)"
            deleted = try ChangedRowCollector.rowIDs(.delete, in: entity.name, of: db) { try db.run(sql, condition.arguments) }
        case .update(let request, let values):
            let assigned = values.sorted { $0.key < $1.key }
            let names = assigned.map(\.key)
            let condition = try Self.whereClause(request)
            let sql = "UPDATE \(table) SET \(Self.assignments(names))\(condition.sql)"
            updated = try ChangedRowCollector.rowIDs(.update, in: entity.name, of: db) { try db.run(sql, assigned.map(\.value) + condition.arguments) }
            if !names.isEmpty { changedAttributes[entity.name] = Set(names) }
        case .insert(let entity, let rows):
            let sql = SaveTransaction.insertSQL(entity)
            var values = ContiguousArray<AttributeValue>()
            for row in rows {
                values.removeAll(keepingCapacity: true)
                for attribute in entity.storedAttributes { values.append(row[attribute.name] ?? attribute.initialValue) }
                do {
                    try db.run(sql, values)
                    inserted.append(db.lastInsertedRowID)
                } catch let failure as SQLiteFailure where failure.isUniquenessViolation {
                    guard let clash = try UniqueKeyClash(values: values, entity: entity, in: db) else { throw failure }
                    switch policy {
                    case .error:
                        // The stored row, or a temporary ID when the clash is with an earlier row of this batch.
                        let clashingID = inserted.contains(clash.id) ? .temporary(entityName: entity.name) : ObjectID(entityName: entity.name, rowID: clash.id)
                        throw SaveError.validation([clash.failure(of: clashingID)])
                    case .mergeByPropertyStoreTrump, .rollback:
                        continue  // the stored row stays as it is
                    case .mergeByPropertyObjectTrump, .overwrite:
                        // Object-trump writes the attributes the row names; overwrite the whole row, defaults included.
                        let names = entity.storedAttributes.map(\.name).filter { policy == .overwrite || row[$0] != nil }
                        do {
                            try db.run("UPDATE \(table) SET \(Self.assignments(names)) WHERE \"_id\" = ?",
                                       names.map { values[entity.attributePositions[$0]!] } + [.integer(clash.id)])  // swiftlint:disable:this force_unwrapping: names from the schema
                        } catch let failure as SQLiteFailure where failure.isUniquenessViolation {
                            // The row's values also repeat another row's key: two rows cannot become one.
                            guard let other = try UniqueKeyClash(values: values, entity: entity, in: db, excluding: clash.id) else { throw failure }
                            throw SaveError.validation([other.failure(of: ObjectID(entityName: entity.name, rowID: other.id))])
                        }
                        updated.append(clash.id)
                        changedAttributes[entity.name, default: []].formUnion(names)
                    }
                }
            }
        }
        let (insertedIDs, updatedIDs, deletedIDs) = (ObjectIDSet(entityName: entity.name, rowIDs: inserted),
                                                     ObjectIDSet(entityName: entity.name, rowIDs: updated),
                                                     ObjectIDSet(entityName: entity.name, rowIDs: deleted))
        let ids = insertedIDs.union(updatedIDs).union(deletedIDs)
        guard !ids.isEmpty else { return BatchResult(count: 0, objectIDs: [], changeSet: nil) }
        let changeSet = try ChangeLog.record(author: author, origin: origin, inserted: insertedIDs, updated: updatedIDs,
                                             deleted: deletedIDs, changedAttributes: changedAttributes, in: db)
        db.afterNextTransaction(onCommit: { _ in hub.publish(changeSet) })
        return BatchResult(count: ids.count, objectIDs: ids, changeSet: changeSet)
    }

    /// `"a" = ?, "b" = ?, "_version" = "_version" + 1`: every batch write moves the rows' versions on, so that a
    /// context's save over an older read is a conflict.
    private static func assignments(_ names: [String]) -> String {
        (names.map { "\(Store.quote($0)) = ?" } + ["\"_version\" = \"_version\" + 1"]).joined(separator: ", ")
    }

    private static func whereClause(_ request: StillpointCore.FetchRequest) throws -> SQLFragment {
        guard let predicate = request.predicate else { return SQLFragment(sql: "") }
        let entity = request.entity
        let fragment = try predicate.sqlFragment(in: .sqlite, entity: entity, resolvingKeysWith: SQLDialect.sqlite.attributeResolver(entity))
        return SQLFragment(sql: " WHERE \(fragment.sql)", arguments: fragment.arguments)
    }
}
