import GRDB
import GRDBSQLite
import Testing
@testable import StillpointCore
@testable import StillpointSQLite

@Suite("Changed row collector")
struct ChangedRowCollectorTests {
    /// Table `a` with rows 1...6; deleting from `a` updates `log` through a trigger, so one statement changes two
    /// tables in two ways.
    private func makeDatabase() throws -> DatabaseQueue {
        let queue = try DatabaseQueue()
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE a (id INTEGER PRIMARY KEY, n INTEGER);
                CREATE TABLE log (id INTEGER PRIMARY KEY, deletions INTEGER);
                INSERT INTO log VALUES (1, 0);
                CREATE TRIGGER counted AFTER DELETE ON a BEGIN UPDATE log SET deletions = deletions + 1; END;
                """)
            for n in 1...6 { try db.execute(sql: "INSERT INTO a VALUES (?, ?)", arguments: [n, n]) }
        }
        return queue
    }

    @Test func collectsOnlyTheChangesOfItsKindInItsTable() throws {
        try makeDatabase().write { db in
            let deleted = try ChangedRowCollector.rowIDs(.delete, in: "a", of: db) { try db.run("DELETE FROM a WHERE n % 2 = 0") }
            #expect(deleted == [2, 4, 6])
            let updatedInA = try ChangedRowCollector.rowIDs(.update, in: "a", of: db) { try db.run("DELETE FROM a WHERE n = 1") }
            #expect(updatedInA == [], "a delete is not an update")
            let updatedLog = try ChangedRowCollector.rowIDs(.update, in: "log", of: db) { try db.run("DELETE FROM a WHERE n = 3") }
            #expect(updatedLog == [1], "a trigger's change is seen in its own table")
            let updated = try ChangedRowCollector.rowIDs(.update, in: "a", of: db) { try db.run("UPDATE a SET n = n + 10") }
            #expect(updated == [5])
        }
    }

    @Test func removesTheHookAfterwardsEvenWhenTheBodyThrows() throws {
        struct Stop: Error {}
        try makeDatabase().write { db in
            #expect(throws: Stop.self) {
                try ChangedRowCollector.rowIDs(.delete, in: "a", of: db) { try db.run("DELETE FROM a WHERE n = 1"); throw Stop() }
            }
            #expect(sqlite3_update_hook(db.sqliteConnection, nil, nil) == nil)
        }
    }
}
