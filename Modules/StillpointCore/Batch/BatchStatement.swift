import Foundation
import GRDB
import GRDBSQLite

/// A batch operation as one SQL statement, run without loading objects, recorded in the change log.
enum BatchStatement: Sendable {
    case delete(FetchRequest)
    case update(FetchRequest, values: [String: AttributeValue])
    case insert(EntityDescription, rows: [[String: AttributeValue]])

    var entity: EntityDescription {
        switch self {
        case .delete(let request), .update(let request, _): return request.entity
        case .insert(let entity, _): return entity
        }
    }

    /// Checks names, types and required values before anything is written.
    func validate() throws {
        switch self {
        case .delete:
            return
        case .update(_, let values):
            for (name, value) in values { try Self.check(value, for: name, in: entity) }
        case .insert(let entity, let rows):
            for row in rows {
                for (name, value) in row { try Self.check(value, for: name, in: entity) }
                for attribute in entity.attributes where !attribute.isOptional && (row[attribute.name] ?? attribute.initialValue).isNull {
                    throw SaveError.validation([ValidationFailure(objectID: .temporary(entityName: entity.name),
                                                                  reason: .missingValue(attribute: attribute.name))])
                }
            }
        }
    }

    /// Runs the statement inside the caller's write transaction and records its change set.
    func run(in db: Database, author: String, origin: StoreOrigin, hub: ChangeSetHub) throws -> BatchResult {
        let table = Store.quote(entity.name)
        var rowIDs: [Int64] = []
        var changedAttributes: [String: Set<String>] = [:]
        switch self {
        case .delete(let request):
            // The IDs first, then a plain DELETE: `DELETE ... RETURNING` costs several times a plain one. When the
            // IDs form a few runs, as they mostly do, deleting the runs by row id spares SQLite a second scan.
            let condition = try Self.whereClause(request)
            try db.query("SELECT \"_id\" FROM \(table)\(condition.sql)", condition.arguments) { rowIDs.append(sqlite3_column_int64($0, 0)) }
            let runs = ObjectIDSet.runs(of: rowIDs)
            if runs.count <= Self.maximumDeletedRuns {
                for run in runs {
                    try db.run("DELETE FROM \(table) WHERE \"_id\" BETWEEN ? AND ?", [.integer(run.lowerBound), .integer(run.upperBound)])
                }
            } else if !runs.isEmpty {
                try db.run("DELETE FROM \(table)\(condition.sql)", condition.arguments)
            }
        case .update(let request, let values):
            let names = values.keys.sorted()
            let condition = try Self.whereClause(request)
            let assignments = names.map { "\(Store.quote($0)) = ?" } + ["\"_version\" = \"_version\" + 1"]
            try db.query("UPDATE \(table) SET \(assignments.joined(separator: ", "))\(condition.sql) RETURNING \"_id\"",
                         names.map { values[$0]! } + condition.arguments) { rowIDs.append(sqlite3_column_int64($0, 0)) }
            if !names.isEmpty { changedAttributes[entity.name] = Set(names) }
        case .insert(let entity, let rows):
            let sql = SaveTransaction.insertSQL(entity)
            var values = ContiguousArray<AttributeValue>()
            for row in rows {
                values.removeAll(keepingCapacity: true)
                for attribute in entity.attributes { values.append(row[attribute.name] ?? attribute.initialValue) }
                do {
                    try db.run(sql, values)
                } catch let failure as SQLiteFailure where failure.isUniquenessViolation {
                    throw SaveError.validation([ValidationFailure(objectID: .temporary(entityName: entity.name), reason: .uniquenessViolation(
                        attributes: entity.uniquenessConstraints.first ?? [], values: (entity.uniquenessConstraints.first ?? []).map { row[$0] ?? .null }))])
                }
                rowIDs.append(db.lastInsertedRowID)
            }
        }
        let ids = ObjectIDSet(entityName: entity.name, rowIDs: rowIDs)
        guard !ids.isEmpty else { return BatchResult(count: 0, objectIDs: [], changeSet: nil) }
        let changeSet = try ChangeLog.record(
            author: author, origin: origin,
            inserted: { if case .insert = self { return ids }; return [] }(),
            updated: { if case .update = self { return ids }; return [] }(),
            deleted: { if case .delete = self { return ids }; return [] }(),
            changedAttributes: changedAttributes, in: db)
        db.afterNextTransaction(onCommit: { _ in hub.publish(changeSet) })
        return BatchResult(count: ids.count, objectIDs: ids, changeSet: changeSet)
    }

    /// Up to this many runs of row ids, a batch delete removes the runs by row id rather than by its condition.
    private static let maximumDeletedRuns = 16

    private static func whereClause(_ request: FetchRequest) throws -> SQLFragment {
        guard let predicate = request.predicate else { return SQLFragment(sql: "") }
        let entity = request.entity
        let fragment = try predicate.sqlFragment { key in
            PredicateKeyResolution(sql: Store.quote(key), type: try entity.attribute(position: key).type)
        }
        return SQLFragment(sql: " WHERE \(fragment.sql)", arguments: fragment.arguments)
    }

    private static func check(_ value: AttributeValue, for name: String, in entity: EntityDescription) throws {
        let attribute = try entity.attribute(position: name)
        guard value.isNull ? attribute.isOptional : value.fits(attribute.type) else {
            throw SchemaError.invalidDeclaration("\(entity.name).\(name) is \(attribute.isOptional ? "an optional " : "")\(attribute.type.rawValue); \(value) does not fit")
        }
    }
}
