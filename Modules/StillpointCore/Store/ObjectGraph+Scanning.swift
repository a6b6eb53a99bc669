import Foundation
import GRDB
import GRDBSQLite

extension ObjectGraph {
    /// The SQL side of ``ObjectContext/scanRows(of:attributes:rowIDs:_:)``: `SELECT _id, attributes... FROM entity`
    /// stepped in place, without a `WHERE` that could send SQLite through an index.
    func scanRows(of entity: EntityDescription, attributes: [String], rowIDs: [Int64]?,
                  _ body: (borrowing ScannedRow) throws -> Void) throws {
        for name in attributes { _ = try entity.attribute(position: name) }
        var sql = "SELECT \(Store.quote("_id"))" + attributes.map { ", " + Store.quote($0) }.joined()
            + " FROM \(Store.quote(entity.name))"
        var arguments: [AttributeValue] = []
        if let rowIDs {
            guard !rowIDs.isEmpty else { return }
            sql += " WHERE \(Store.quote("_id")) IN (" + Array(repeating: "?", count: rowIDs.count).joined(separator: ", ") + ")"
            arguments = rowIDs.map { .integer($0) }
        }
        try withDatabase { db in
            // A statement of its own: the body may scan again.
            let statement = try db.makeStatement(sql: sql)
            try db.query(statement, arguments) { handle in
                try body(ScannedRow(statement: handle))
            }
        }
    }

    /// The change sets after `token` in the state this graph reads, complete or an error.
    func history(after token: HistoryToken) throws -> [ChangeSet] {
        let path = store.location.displayPath
        return try withDatabase { db in try ChangeLog.completeHistory(after: token.sequence, in: db, path: path) }
    }

    /// The last change-log sequence in the state this graph reads.
    func historyToken() throws -> HistoryToken {
        HistoryToken(sequence: try withDatabase { db in try ChangeLog.lastSequence(in: db) })
    }
}
