import Foundation
@testable import StillpointPostgres
import StillpointPostgresTestSupport
import StillpointCore
import StillpointSQLite
import Synchronization
import Testing

@Suite("PostgresChangeLog", .serialized, .enabled(if: PostgresTestServer.isWanted))
struct PostgresChangeLogTests {
    let uri: String

    init() throws {
        uri = try PostgresTestServer.shared().makeDatabase("changelog")
        try PostgresConnection(uri: uri).execute(PostgresChangeLog.createTable)
    }

    func record(_ author: String, on connection: PostgresConnection) throws -> Int64 {
        try PostgresChangeLog.record(author: author, timestamp: 0, changes: "{}", origin: "", on: connection)
    }

    /// The case a "last sequence read" reader gets wrong: a row numbered 1 commits after a row numbered 2.
    ///
    /// The watermark is the database's: a transaction of another test in it may hold rows back for a moment, so the reads poll until what must arrive has arrived; what must not arrive never may.
    @Test func aRowThatCommitsLateIsReadLateNotSkipped() throws {
        let reader = try PostgresConnection(uri: uri)
        var position = try PostgresChangeLog.currentPosition(on: reader)
        let (first, older, late) = (try PostgresConnection(uri: uri), try PostgresConnection(uri: uri), try PostgresConnection(uri: uri))
        try first.execute("BEGIN")
        try first.execute("SELECT pg_current_xact_id()")        // the oldest transaction id of the three
        try older.execute("BEGIN")
        try older.execute("SELECT pg_current_xact_id()")        // stays open for a while, writing nothing
        try late.execute("BEGIN")
        let lateSequence = try record("late", on: late)          // numbered first, committed last
        let firstSequence = try record("first", on: first)
        try first.execute("COMMIT")
        #expect(lateSequence < firstSequence)

        var read: [Int64] = []
        func readPolling(until expected: [Int64], for seconds: Double = 10) throws {
            let deadline = Date().addingTimeInterval(seconds)
            repeat {
                let (entries, next) = try PostgresChangeLog.entries(after: position, on: reader).entriesAndNext
                read += entries.map(\.sequence)
                position = next
                if read == expected { return }
                Thread.sleep(forTimeInterval: 0.01)
            } while Date() < deadline
        }
        try readPolling(until: [firstSequence])
        #expect(read == [firstSequence])
        try late.execute("COMMIT")
        try readPolling(until: [firstSequence, lateSequence], for: 0.5)
        #expect(read == [firstSequence], "held back while an older transaction runs, not read out of order")
        try older.execute("ROLLBACK")
        try readPolling(until: [firstSequence, lateSequence])
        #expect(read == [firstSequence, lateSequence], "read once its older neighbour ended, never skipped")
        let (again, _) = try PostgresChangeLog.entries(after: position, on: reader).entriesAndNext
        #expect(again.isEmpty, "each row once")
    }

    /// A transaction running in another database of the server cannot write this log, and does not hold it back.
    @Test func aTransactionInAnotherDatabaseHoldsNothingBack() throws {
        let elsewhere = try PostgresConnection(uri: try PostgresTestServer.shared().makeDatabase("elsewhere"))
        try elsewhere.execute("BEGIN")
        try elsewhere.execute("SELECT pg_current_xact_id()")
        let reader = try PostgresConnection(uri: uri)
        let position = try PostgresChangeLog.currentPosition(on: reader)
        let writer = try PostgresConnection(uri: uri)
        let sequence = try record("after", on: writer)
        let (entries, next) = try PostgresChangeLog.entries(after: position, on: reader).entriesAndNext
        #expect(entries.map(\.sequence) == [sequence])
        #expect(next > position)
        try elsewhere.execute("ROLLBACK")
    }

    /// The race a single read can lose: a transaction of another database runs in the read's snapshot and ends
    /// before `pg_stat_activity` is read, so nothing shows it is not this database's, and it holds the horizon
    /// back. The read says so, and so does the store's history, so that a caller reads again in a new transaction.
    /// A repeatable-read transaction keeps the reader's snapshot from before the other transaction ended, which
    /// opens the window for as long as the test needs.
    @Test func aReadHeldBackByATransactionThatEndedSaysSo() throws {
        let reader = try PostgresConnection(uri: uri)
        // The store's history reads its purge mark too.
        try reader.execute("""
            CREATE TABLE IF NOT EXISTS \(PostgresSchema.purgeTable) (id integer PRIMARY KEY, through bigint NOT NULL);
            INSERT INTO \(PostgresSchema.purgeTable) VALUES (1, 0) ON CONFLICT (id) DO NOTHING
            """)
        let position = try PostgresChangeLog.currentPosition(on: reader)
        let elsewhere = try PostgresConnection(uri: try PostgresTestServer.shared().makeDatabase("ended"))
        try elsewhere.execute("BEGIN")
        let ended = try #require(try elsewhere.execute("SELECT pg_current_xact_id()::text").text(row: 0, column: 0).flatMap(UInt64.init))
        let committed = try record("after", on: PostgresConnection(uri: uri))   // a later transaction id, committed
        try reader.execute("BEGIN ISOLATION LEVEL REPEATABLE READ")
        try reader.execute("SELECT 1")                              // the snapshot, with `ended` running in it
        try elsewhere.execute("COMMIT")

        let read = try PostgresChangeLog.entries(after: position, on: reader)
        #expect(read.heldBackByEndedTransaction)
        #expect(read.next.watermark <= ended && read.entries.isEmpty, "held back by the transaction that ended")
        let history = try PostgresStoreConnection(reader).completeHistory(after: Int64(position.watermark), path: "test")
        #expect(history.mayBeBehind && history.isEmpty)
        try reader.execute("COMMIT")

        var next = position
        var entries: [Int64] = []
        let deadline = Date().addingTimeInterval(10)
        repeat {
            let again = try PostgresChangeLog.entries(after: next, on: reader)
            entries += again.entries.map(\.sequence)
            next = again.next
        } while entries.isEmpty && Date() < deadline
        #expect(entries == [committed] && next.watermark > ended, "a new snapshot moves past it")
    }

    /// Writers on their own connections (server processes of their own) commit and roll back at random while a
    /// reader polls: the reader ends with every committed row exactly once and no rolled-back one.
    @Test func concurrentWritersNeverMakeTheReaderSkipARow() throws {
        let reader = try PostgresConnection(uri: uri)
        var position = try PostgresChangeLog.currentPosition(on: reader)
        let writersDone = Atomic<Int>(0)
        let failures = LockedState<[String]>([])
        let writerCount = 4
        for writer in 0..<writerCount {
            let uri = self.uri
            let thread = Thread {
                do {
                    let connection = try PostgresConnection(uri: uri)
                    var random = SystemRandomNumberGenerator()
                    for round in 0..<40 {
                        try connection.execute("BEGIN")
                        if Bool.random(using: &random) { try connection.execute("SELECT pg_current_xact_id()") }
                        try connection.execute("SELECT pg_sleep($1)", [String(Double.random(in: 0...0.004, using: &random))])
                        try PostgresChangeLog.record(author: "w\(writer)-\(round)", timestamp: 0, changes: "{}", origin: "", on: connection)
                        try connection.execute("SELECT pg_sleep($1)", [String(Double.random(in: 0...0.004, using: &random))])
                        try connection.execute(round % 7 == 3 ? "ROLLBACK" : "COMMIT")
                    }
                } catch {
                    failures.withLock { $0.append("writer \(writer): \(error)") }
                }
                writersDone.add(1, ordering: .releasing)
            }
            thread.start()
        }
        var read: [Int64] = []
        var polls = 0
        while writersDone.load(ordering: .acquiring) < writerCount {
            let (entries, next) = try PostgresChangeLog.entries(after: position, on: reader).entriesAndNext
            read += entries.map(\.sequence)
            position = next
            polls += 1
            Thread.sleep(forTimeInterval: 0.001)
        }
        let committed = try reader.execute("SELECT sequence FROM \(PostgresChangeLog.table) ORDER BY sequence")
        let all = (0..<committed.rowCount).compactMap { committed.integer(row: $0, column: 0) }
        // What is still held back (by a transaction anywhere on the server) arrives once it ends.
        let deadline = Date().addingTimeInterval(10)
        while read.count < all.count && Date() < deadline {
            let (entries, next) = try PostgresChangeLog.entries(after: position, on: reader).entriesAndNext
            read += entries.map(\.sequence)
            position = next
            Thread.sleep(forTimeInterval: 0.01)
        }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        #expect(all.count == writerCount * (40 - 6))
        #expect(read.sorted() == all, "every committed row once, none skipped")
        #expect(Set(read).count == read.count)
        #expect(polls > 10)
    }

    /// The watcher reads at each ring: the horizon and the rows below it in one statement, so one round trip.
    @Test func readingTheEntriesIsOneRoundTrip() throws {
        let counter = PostgresStatementCounter()
        let reader = try PostgresConnection(uri: uri, countingIn: counter)
        let position = try PostgresChangeLog.currentPosition(on: reader)
        let writer = try PostgresConnection(uri: uri)
        let recorded = [try record("one", on: writer), try record("two", on: writer)]
        var read: [Int64] = []
        var next = position
        let deadline = Date().addingTimeInterval(10)
        repeat {
            let before = counter.roundTrips
            let (entries, after) = try PostgresChangeLog.entries(after: next, on: reader).entriesAndNext
            #expect(counter.roundTrips - before == 1)
            #expect(after >= next)
            read += entries.map(\.sequence)
            next = after
        } while read.count < recorded.count && Date() < deadline
        #expect(read == recorded)
        let (again, _) = try PostgresChangeLog.entries(after: next, on: reader).entriesAndNext
        #expect(again.isEmpty, "each row once")
    }

    /// The read at each ring is planned once per connection, not at every read: planning its statement (the
    /// position expression four times over) cost the server about as much as a read of a few rows.
    @Test func readingTheEntriesIsPlannedOncePerConnection() throws {
        let counter = PostgresStatementCounter()
        let reader = try PostgresConnection(uri: uri, countingIn: counter)
        var position = try PostgresChangeLog.currentPosition(on: reader)
        let afterPosition = counter.preparations
        let writer = try PostgresConnection(uri: uri)
        var read: [Int64] = []
        var recorded: [Int64] = []
        for round in 0..<3 {
            recorded.append(try record("round \(round)", on: writer))
            let deadline = Date().addingTimeInterval(10)
            repeat {
                let (entries, next) = try PostgresChangeLog.entries(after: position, on: reader).entriesAndNext
                read += entries.map(\.sequence)
                position = next
            } while read.count < recorded.count && Date() < deadline
        }
        #expect(read == recorded)
        #expect(counter.preparations - afterPosition == 1, "prepared at the first read only")
        let onServer = try reader.execute(
            "SELECT count(*) FROM pg_prepared_statements WHERE statement LIKE '%LEFT JOIN \(PostgresChangeLog.table)%'")
        #expect(onServer.integer(row: 0, column: 0) == 1)
    }

    @Test func aCommitRingsTheDoorbell() throws {
        let listener = try PostgresConnection(uri: uri)
        try listener.execute("LISTEN \(PostgresChangeLog.channel)")
        let writer = try PostgresConnection(uri: uri)
        try writer.transaction {
            _ = try record("doorbell", on: writer)
            #expect(try listener.notifications().isEmpty, "nothing rings before the commit")
        }
        #expect(try listener.notifications(waitingUpTo: .seconds(5)).map(\.channel) == [PostgresChangeLog.channel])
    }
}

extension PostgresChangeLog.Read {
    var entriesAndNext: ([PostgresChangeLog.Entry], PostgresChangeLog.Position) { (entries, next) }
}
