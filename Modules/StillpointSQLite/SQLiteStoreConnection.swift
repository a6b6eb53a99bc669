import Foundation
import GRDB
import GRDBSQLite
import StillpointCore
import StillpointSQL

/// SQLite's side of the store seam: one GRDB connection inside a transaction, read through SQLite's C API.
///
/// The loops over rows are the fast paths of fetches, saves and cursors: they read columns straight from the
/// statement into values, with one prepared statement per query.
struct SQLiteStoreConnection: StoreWriter {
    let db: Database

    var dialect: SQLDialect { .sqlite }

    func forEachObject(_ request: StillpointCore.FetchRequest, limit: Int?, offset: Int?, streaming: Bool,
                       _ body: (Int64, Int64, ContiguousArray<AttributeValue>) throws -> Void) throws {
        let entity = request.entity
        let query = try dialect.select(request, columns: StoreRows.objectColumns(of: entity), limit: limit, offset: offset)
        // A statement of its own when streaming: the body may run the same query again.
        let statement = streaming ? try db.makeStatement(sql: query.sql) : try db.cachedStatement(sql: query.sql)
        try db.query(statement, query.arguments) { handle in
            try body(sqlite3_column_int64(handle, 0), sqlite3_column_int64(handle, 1), StoreRows.values(of: entity, from: handle))
        }
    }

    func forEachObject(of entity: EntityDescription, rowIDs: [Int64],
                       _ body: (Int64, Int64, ContiguousArray<AttributeValue>) throws -> Void) throws {
        // At most 500 parameters per statement, well under SQLite's limit.
        for start in stride(from: 0, to: rowIDs.count, by: 500) {
            let chunk = rowIDs[start..<min(start + 500, rowIDs.count)]
            let sql = "SELECT \(StoreRows.objectColumns(of: entity)) FROM \(Store.quote(entity.name))"
                + " WHERE \"_id\" IN (\(dialect.parameters(chunk.count)))"
            try db.query(sql, chunk.map(AttributeValue.integer)) { handle in
                try body(sqlite3_column_int64(handle, 0), sqlite3_column_int64(handle, 1), StoreRows.values(of: entity, from: handle))
            }
        }
    }

    func count(_ request: StillpointCore.FetchRequest) throws -> Int {
        let query = try dialect.select(request, columns: "COUNT(*)")
        var total = 0
        try db.query(query.sql, query.arguments) { total = Int(sqlite3_column_int64($0, 0)) }
        return total
    }

    func forEachRowID(_ request: StillpointCore.FetchRequest, _ body: (Int64) throws -> Void) throws {
        let query = try dialect.select(request, columns: "\"_id\"")
        try db.query(query.sql, query.arguments) { try body(sqlite3_column_int64($0, 0)) }
    }

    func storedRow(id: Int64, of entity: EntityDescription) throws -> (ContiguousArray<AttributeValue>, Int64)? {
        try StoreRows.row(id: id, entity: entity, in: db)
    }

    /// Streams whether or not `streaming` asks: SQLite steps the statement a row at a time either way.
    func forEachDictionaryRow(_ request: StillpointCore.FetchRequest, columns: [DictionaryColumn], streaming: Bool,
                              _ body: (ContiguousArray<AttributeValue>) throws -> Void) throws {
        let query = try dialect.dictionarySelect(request, columns: columns)
        let types = columns.map(\.type)
        var values = ContiguousArray<AttributeValue>()
        values.reserveCapacity(types.count)
        // A statement of its own: the body may run the same query again.
        let statement = try db.makeStatement(sql: query.sql)
        try db.query(statement, query.arguments) { handle in
            values.removeAll(keepingCapacity: true)
            for (offset, type) in types.enumerated() {
                values.append(AttributeValue(column: Int32(offset), of: handle, as: type))
            }
            try body(values)
        }
    }

    func exportRows(_ request: StillpointCore.FetchRequest, columns: [String], types: ContiguousArray<AttributeType>,
                    to rows: inout ExportRowWriter) throws {
        let query = try dialect.select(request, columns: columns.map(Store.quote).joined(separator: ", "),
                                       limit: request.limit, offset: request.offset)
        // A statement of its own: a custom format may run queries of its own.
        let statement = try db.makeStatement(sql: query.sql)
        try db.query(statement, query.arguments) { handle in
            try rows.append(ExportCursorRow(statement: handle, types: types))
        }
    }

    func lastHistorySequence() throws -> Int64 {
        try ChangeLog.lastSequence(in: db)
    }

    func changeSets(after sequence: Int64, excludingProcess process: String?,
                    damaged: (Int64) throws -> Void) throws -> (changeSets: [ChangeSet], next: Int64) {
        let changeSets = try ChangeLog.changeSets(after: sequence, excludingProcess: process, in: db, damaged: damaged)
        // The same transaction: nothing was recorded after what was read.
        return (changeSets, max(sequence, try ChangeLog.lastSequence(in: db)))
    }

    func completeHistory(after sequence: Int64, path: String) throws -> ChangeHistory {
        let changeSets = try ChangeLog.completeHistory(after: sequence, in: db, path: path)
        return ChangeHistory(changeSets: changeSets, token: HistoryToken(sequence: changeSets.last?.sequence ?? sequence))
    }

    func purgeHistory(through sequence: Int64) throws {
        try ChangeLog.purge(through: sequence, in: db)
    }

    /// Nothing to do: a write transaction is `IMMEDIATE`, one writer at a time.
    func takeTurnWithOtherGroupedBatches() throws {}

    func save(_ transaction: SaveTransaction, hub: ChangeSetHub) throws -> SaveTransaction.Outcome {
        try SQLiteFailure.mappingBrokenReferences { try transaction.run(rows: SQLiteSaveRows(db), hub: hub) }
    }

    func run(_ batch: BatchStatement, author: String, origin: StoreOrigin, policy: MergePolicy, hub: ChangeSetHub) throws -> BatchResult {
        try SQLiteFailure.mappingBrokenReferences { try batch.run(rows: SQLiteSaveRows(db), author: author, origin: origin, policy: policy, hub: hub) }
    }

    func write(_ batch: ImportBatch, hub: ChangeSetHub) throws -> ImportBatch.Result {
        try SQLiteFailure.mappingBrokenReferences { try batch.run(rows: SQLiteSaveRows(db), hub: hub) }
    }
}
