import GRDB
import StillpointCore

extension SQLiteStoreConnection {
    /// `SELECT _id, attributes... FROM entity` stepped in place, without a `WHERE` that could send SQLite through
    /// an index; with `rowIDs`, those rows, 500 at a time.
    func scanRows(of entity: EntityDescription, attributes: [String], rowIDs: [Int64]?,
                  _ body: (borrowing ScannedRow) throws -> Void) throws {
        let select = "SELECT \(Store.quote("_id"))" + attributes.map { ", " + Store.quote($0) }.joined()
            + " FROM \(Store.quote(entity.name))"
        guard let rowIDs else {
            // A statement of its own: the body may scan again.
            try db.query(try db.makeStatement(sql: select)) { try body(ScannedRow(statement: $0, columns: .sqlite)) }
            return
        }
        for start in stride(from: 0, to: rowIDs.count, by: 500) {
            let chunk = rowIDs[start..<min(start + 500, rowIDs.count)]
            let sql = select + " WHERE \(Store.quote("_id")) IN (" + Array(repeating: "?", count: chunk.count).joined(separator: ", ") + ")"
            try db.query(try db.makeStatement(sql: sql), chunk.map { .integer($0) }) { try body(ScannedRow(statement: $0, columns: .sqlite)) }
        }
    }

    /// `SELECT _id, attributes... FROM entity WHERE <request's predicate> ORDER BY <its sort keys>, _id` stepped in
    /// place: one statement, which an index led by the predicate's column serves (a practitioner's sessions). A
    /// statement steps through its rows whether `streaming` or not.
    func scanRows(_ request: StillpointCore.FetchRequest, attributes: [String], streaming: Bool,
                  _ body: (borrowing ScannedRow) throws -> Void) throws {
        let query = try dialect.select(request, columns: (["_id"] + attributes).map(Store.quote).joined(separator: ", "))
        // A statement of its own: the body may scan again.
        try db.query(try db.makeStatement(sql: query.sql), query.arguments) { try body(ScannedRow(statement: $0, columns: .sqlite)) }
    }
}
