import Foundation
import GRDB
import GRDBSQLite
import StillpointCore
import StillpointSQL

/// The row writes of a save, import or batch on SQLite, in the caller's write transaction: the core's one
/// algorithm (``SaveTransaction/run(rows:hub:)``, ``ImportBatch/run(rows:hub:)``,
/// ``BatchStatement/run(rows:author:origin:policy:hub:)``) over SQLite's fast path, a prepared statement per entity
/// and kind, bound and stepped once per row with no SQL built or looked up per row.
///
/// ```swift
/// let outcome = try transaction.run(rows: SQLiteSaveRows(db), hub: hub)
/// ```
struct SQLiteSaveRows: SaveRowWriter {
    let db: Database
    private let statements: SQLiteWriteStatements

    init(_ db: Database) {
        self.db = db
        statements = SQLiteWriteStatements(db)
    }

    /// `INSERT ... ON CONFLICT DO NOTHING`: a taken key is a row not written, not an error thrown and caught.
    func insertRow(_ values: ContiguousArray<AttributeValue>, of entity: EntityDescription) throws -> Int64? {
        let statement = try statements.statement(.insertUnlessTaken, for: entity)
        return try db.run(statement, values: values) == 1 ? db.lastInsertedRowIDUnchecked : nil
    }

    func insertRows(_ rows: [ContiguousArray<AttributeValue>], of entity: EntityDescription) throws -> [Int64?] {
        let statement = try statements.statement(.insertUnlessTaken, for: entity)
        var ids: [Int64?] = []
        ids.reserveCapacity(rows.count)
        for values in rows {
            ids.append(try db.run(statement, values: values) == 1 ? db.lastInsertedRowIDUnchecked : nil)
        }
        return ids
    }

    func undoingUnless(_ body: () throws -> Bool) throws -> Bool {
        try undoingUnless(body) { try db.run($0) }
    }

    func updateRow(_ values: ContiguousArray<AttributeValue>, of entity: EntityDescription, rowID: Int64, version: Int64) throws -> RowWriteResult {
        do {
            return try db.run(try statements.statement(.update, for: entity), values: values, rowID: rowID, version: version) == 1 ? .written : .stale
        } catch let failure as SQLiteFailure where failure.isUniquenessViolation {
            return .uniqueKeyTaken
        }
    }

    func updateRows(_ rows: [(rowID: Int64, version: Int64, values: ContiguousArray<AttributeValue>)], of entity: EntityDescription) throws -> [Bool] {
        let statement = try statements.statement(.update, for: entity)
        var written: [Bool] = []
        written.reserveCapacity(rows.count)
        for row in rows {
            written.append(try db.run(statement, values: row.values, rowID: row.rowID, version: row.version) == 1)
        }
        return written
    }

    func deleteRows(_ rows: [(rowID: Int64, version: Int64)], of entity: EntityDescription) throws -> [Bool] {
        let statement = try statements.statement(.delete, for: entity)
        var deleted: [Bool] = []
        deleted.reserveCapacity(rows.count)
        for row in rows {
            deleted.append(try db.run(statement, values: [], rowID: row.rowID, version: row.version) == 1)
        }
        return deleted
    }

    func deleteRow(of entity: EntityDescription, rowID: Int64, version: Int64?) throws -> Bool {
        let statement = try statements.statement(version == nil ? .deleteAnyVersion : .delete, for: entity)
        return try db.run(statement, values: [], rowID: rowID, version: version) == 1
    }

    func storedRow(id: Int64, of entity: EntityDescription) throws -> (ContiguousArray<AttributeValue>, Int64)? {
        try StoreRows.row(id: id, entity: entity, in: db)
    }

    func rowHolding(uniqueKeyOf values: ContiguousArray<AttributeValue>, entity: EntityDescription, excluding excluded: Int64?)
        throws -> (id: Int64, values: ContiguousArray<AttributeValue>, version: Int64, constraint: [String])? {
        try UniqueKeyClash(values: values, entity: entity, in: db, excluding: excluded).map { ($0.id, $0.values, $0.version, $0.constraint) }
    }

    func rows(of entity: EntityDescription, keyedBy names: [String], among keys: [[AttributeValue]])
        throws -> [(id: Int64, values: ContiguousArray<AttributeValue>, version: Int64)] {
        var found: [(id: Int64, values: ContiguousArray<AttributeValue>, version: Int64)] = []
        found.reserveCapacity(keys.count)
        // At most 30,000 parameters per statement, under SQLite's 32,766.
        for query in SQLDialect.sqlite.keyLookups(of: entity, keyedBy: names, among: keys, maxParameters: 30_000) {
            // A statement of its own: the IN lists change size from call to call.
            try db.query(try db.makeStatement(sql: query.sql), query.arguments) { statement in
                found.append((sqlite3_column_int64(statement, 0), try StoreRows.values(of: entity, from: statement), sqlite3_column_int64(statement, 1)))
            }
        }
        return found
    }

    /// Learns the deleted rows from SQLite's update hook as the statement runs, not from a `SELECT` or `RETURNING`.
    func deleteRows(matching request: StillpointCore.FetchRequest) throws -> [Int64] {
        let condition = try whereClause(request)
        // `WHERE 1` when there is no condition: SQLite would drop the table's pages whole, unseen by the hook.
        let sql = "DELETE FROM \(Store.quote(request.entity.name))\(request.predicate == nil ? " WHERE 1" : condition.sql)"
        return try ChangedRowCollector.rowIDs(.delete, in: request.entity.name, of: db) { try db.run(sql, condition.arguments) }
    }

    /// Learns the updated rows from SQLite's update hook as the statement runs.
    func updateRows(matching request: StillpointCore.FetchRequest, setting values: [(name: String, value: AttributeValue)]) throws -> [Int64] {
        let condition = try whereClause(request)
        let assignments = (values.map { "\(Store.quote($0.name)) = ?" } + ["\"_version\" = \"_version\" + 1"]).joined(separator: ", ")
        let sql = "UPDATE \(Store.quote(request.entity.name)) SET \(assignments)\(condition.sql)"
        return try ChangedRowCollector.rowIDs(.update, in: request.entity.name, of: db) { try db.run(sql, values.map(\.value) + condition.arguments) }
    }

    func recordChanges(_ payload: String, author: String, origin: StoreOrigin, timestamp: Date) throws -> Int64 {
        try ChangeLog.record(payload, author: author, origin: origin, timestamp: timestamp, in: db)
    }

    /// Published once committed, on the writer, so observers see change sets in commit order.
    func afterCommit(_ action: @escaping @Sendable () -> Void) {
        db.afterNextTransaction(onCommit: { _ in action() })
    }

    /// ` WHERE predicate`, or nothing.
    private func whereClause(_ request: StillpointCore.FetchRequest) throws -> SQLFragment {
        guard let predicate = request.predicate else { return SQLFragment(sql: "") }
        let entity = request.entity
        let fragment = try predicate.sqlFragment(in: .sqlite, entity: entity, resolvingKeysWith: SQLDialect.sqlite.attributeResolver(entity))
        return SQLFragment(sql: " WHERE \(fragment.sql)", arguments: fragment.arguments)
    }
}
