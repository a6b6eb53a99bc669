import Foundation
import GRDB
import GRDBSQLite
import StillpointCore

/// Collects the ids of the rows SQLite deletes or updates in one table, through the connection's update hook.
///
/// SQLite calls the hook once per changed row with its row id, from inside the statement's own scan, so a batch
/// operation learns what it changed without a `SELECT` before it or a `RETURNING` clause (which costs several
/// times the plain statement). Stillpoint registers no GRDB transaction observer, so the hook is free to use.
struct ChangedRowCollector {
    enum Change {
        case delete, update

        var code: Int32 { self == .delete ? SQLITE_DELETE : SQLITE_UPDATE }
    }

    private let change: Int32
    private let table: UnsafePointer<CChar>
    /// The name pointer SQLite last passed for `table`: it passes the same one for every row of a statement.
    private var matchedTable: UnsafePointer<CChar>?
    private var rowIDs: [Int64] = []

    /// Runs `body`, which must run its statements on `db` directly, and returns the ids of the rows it deleted
    /// from or updated in `table`, in the order SQLite changed them.
    ///
    /// Rows SQLite removes without visiting them are not seen: a `DELETE` without `WHERE` must say `WHERE 1`, or
    /// SQLite drops the table's pages whole.
    static func rowIDs(_ change: Change, in table: String, of db: Database, by body: () throws -> Void) throws -> [Int64] {
        try table.withCString { table in
            var collector = ChangedRowCollector(change: change.code, table: table)
            // A pointer to a struct, not a class: the hook runs once per row, and a class's property would be
            // retained and checked for exclusive access each time.
            try withUnsafeMutablePointer(to: &collector) { collector in
                let previous = sqlite3_update_hook(db.sqliteConnection, { context, change, _, table, rowID in
                    guard let table else { return }
                    context!.assumingMemoryBound(to: ChangedRowCollector.self).pointee.record(change, of: rowID, in: table)  // swiftlint:disable:this force_unwrapping: the pointer passed below
                }, collector)
                assert(previous == nil, "another update hook was installed: its rows would go unseen")
                defer { sqlite3_update_hook(db.sqliteConnection, nil, nil) }
                try body()
            }
            return collector.rowIDs
        }
    }

    private mutating func record(_ rowChange: Int32, of rowID: Int64, in changedTable: UnsafePointer<CChar>) {
        guard rowChange == change else { return }
        if changedTable != matchedTable {
            guard strcmp(changedTable, table) == 0 else { return }
            matchedTable = changedTable
        }
        rowIDs.append(rowID)
    }
}
