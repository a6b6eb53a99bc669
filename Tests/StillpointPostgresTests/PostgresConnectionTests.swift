import Foundation
@testable import StillpointPostgres
import StillpointPostgresTestSupport
import Testing

@Suite("PostgresConnection", .enabled(if: PostgresTestServer.isWanted))
struct PostgresConnectionTests {
    let uri: String

    init() throws {
        uri = try PostgresTestServer.shared().makeDatabase("connection")
    }

    @Test func runsStatementsWithTextParameters() throws {
        let connection = try PostgresConnection(uri: uri)
        try connection.execute("CREATE TABLE note (id bigserial PRIMARY KEY, body text, weight double precision)")
        let inserted = try connection.execute("INSERT INTO note (body, weight) VALUES ($1, $2), ($3, $4) RETURNING id",
                                              ["tab\there, quote ' and ünïcode", "1.5", nil, "2"])
        #expect(inserted.rowCount == 2)
        #expect(inserted.affectedRows == 2)
        let rows = try connection.execute("SELECT id, body, weight FROM note ORDER BY id")
        #expect(rows.columnName(1) == "body")
        #expect(rows.integer(row: 0, column: 0) == 1)
        #expect(rows.text(row: 0, column: 1) == "tab\there, quote ' and ünïcode")
        #expect(rows.text(row: 1, column: 1) == nil)
        #expect(rows.double(row: 1, column: 2) == 2)
    }

    @Test func aFailedTransactionRollsBackAndNamesTheSQLState() throws {
        let connection = try PostgresConnection(uri: uri)
        try connection.execute("CREATE TABLE keyed (key text UNIQUE)")
        #expect(throws: PostgresError.self) {
            try connection.transaction {
                try connection.execute("INSERT INTO keyed VALUES ('a')")
                try connection.execute("INSERT INTO keyed VALUES ('a')")
            }
        }
        do {
            try connection.execute("INSERT INTO keyed VALUES ('b'), ('b')")
            Issue.record("a duplicate key was accepted")
        } catch {
            #expect(error.isUniqueViolation)
            #expect(error.description.contains("SQLSTATE 23505"))
        }
        #expect(try connection.execute("SELECT count(*) FROM keyed").integer(row: 0, column: 0) == 0)
    }

    @Test func copiesRowsInWithEscapes() throws {
        let connection = try PostgresConnection(uri: uri)
        try connection.execute("CREATE TABLE copied (n bigint, body text)")
        let rows = (0..<10_000).lazy.map { [String($0), $0 % 3 == 0 ? nil : "line\\\($0)\nnext\ttab"] }
        #expect(try connection.copy("COPY copied (n, body) FROM STDIN", rows: rows) == 10_000)
        let check = try connection.execute("SELECT count(*), count(body), max(n) FROM copied")
        #expect(check.integer(row: 0, column: 0) == 10_000)
        #expect(check.integer(row: 0, column: 1) == 6_666)
        #expect(try connection.execute("SELECT body FROM copied WHERE n = 1").text(row: 0, column: 0) == "line\\1\nnext\ttab")
        // Every escape at the start, in the middle and at the end of a field, beside text that needs none.
        let awkward = ["\\", "\r\n\t\\", "\tcafé\r", "plain", "", "a long line of text that is stored out of line\\"]
        try connection.execute("DELETE FROM copied")
        #expect(try connection.copy("COPY copied (n, body) FROM STDIN", rows: awkward.enumerated().map { [String($0), $1] }) == awkward.count)
        let back = try connection.execute("SELECT body FROM copied ORDER BY n")
        #expect((0..<back.rowCount).map { back.text(row: $0, column: 0) } == awkward)
    }

    @Test func aRunningStatementIsCancelledFromAnotherThread() throws {
        let connection = try PostgresConnection(uri: uri)
        let token = connection.cancelToken
        let canceller = Thread {
            Thread.sleep(forTimeInterval: 0.3)
            token.cancel()
        }
        canceller.start()
        let start = Date()
        do {
            try connection.execute("SELECT pg_sleep(30)")
            Issue.record("the statement was not cancelled")
        } catch {
            #expect(error.isCancellation, "\(error)")
        }
        #expect(Date().timeIntervalSince(start) < 10)
        #expect(try connection.execute("SELECT 1").integer(row: 0, column: 0) == 1)
    }

    @Test func notificationsArriveOnListeningConnections() throws {
        let listener = try PostgresConnection(uri: uri)
        try listener.execute("LISTEN stillpoint_changes")
        let sender = try PostgresConnection(uri: uri)
        try sender.execute("SELECT pg_notify('stillpoint_changes', '42')")
        let received = try listener.notifications(waitingUpTo: .seconds(5))
        #expect(received.map(\.channel) == ["stillpoint_changes"])
        #expect(received.map(\.payload) == ["42"])
        #expect(try listener.notifications().isEmpty)
    }

    /// The server's refusal keeps its SQLSTATE, and its message reads as libpq's usual one.
    @Test func aMissingDatabaseIsTellableFromAnUnreachableServer() throws {
        let missing = try PostgresTestServer.shared().uri(database: "not_there")
        do {
            _ = try PostgresConnection(uri: missing)
            Issue.record("connected to a database that does not exist")
        } catch {
            #expect(error.isMissingDatabase && error.isConnectionFailure, "\(error)")
            #expect(error.sqlState == PostgresError.noSuchDatabase)
            #expect(error.database == "not_there")
            #expect(error.message.hasSuffix(#"FATAL:  database "not_there" does not exist"#), "\(error.message)")
            #expect(error.description.contains("check that the server runs"))
        }
        do {
            _ = try PostgresConnection(uri: "postgresql://someone@127.0.0.1:1/practice")
            Issue.record("connected to nothing")
        } catch {
            #expect(!error.isMissingDatabase && error.isConnectionFailure, "\(error)")
            #expect(error.sqlState == PostgresError.cannotConnect)
        }
    }

    @Test func anUnreachableServerIsNamedWithoutThePassword() throws {
        do {
            _ = try PostgresConnection(uri: "postgresql://someone:s3cret@127.0.0.1:1/practice?connect_timeout=2")
            Issue.record("connected to nothing")
        } catch {
            #expect(error.description.contains("127.0.0.1:1 (database practice, user someone)"), "\(error)")
            #expect(error.description.contains("check that the server runs"))
            #expect(!error.description.contains("s3cret"))
            #expect(!error.description.contains("\n"))
        }
    }

    /// A read transaction's `BEGIN` goes with its first statement (one round trip) and its `COMMIT` is not waited for,
    /// yet it is one `REPEATABLE READ` snapshot: a row another connection commits meanwhile is not seen, and is seen
    /// by the next statement on the connection once the transaction ended.
    @Test func aReadTransactionBeginsWithItsFirstStatementAndDoesNotWaitForItsCommit() throws {
        let writer = try PostgresConnection(uri: uri)
        try writer.execute("CREATE TABLE mark (id bigint)")
        try writer.execute("INSERT INTO mark VALUES (1)")
        let statements = PostgresStatementCounter()
        let connection = try PostgresConnection(uri: uri, countingIn: statements)
        let (first, second, isolation) = try connection.readTransaction("ISOLATION LEVEL REPEATABLE READ, READ ONLY") {
            let first = try connection.execute("SELECT count(*) FROM mark").integer(row: 0, column: 0)
            try writer.execute("INSERT INTO mark VALUES (2)")
            let second = try connection.execute("SELECT count(*) FROM mark").integer(row: 0, column: 0)
            return (first, second, try connection.execute("SHOW transaction_isolation").text(row: 0, column: 0))
        }
        #expect(first == 1 && second == 1)
        #expect(isolation == "repeatable read")
        // BEGIN, three statements, COMMIT: three round trips.
        #expect(statements.count == 5 && statements.roundTrips == 3)
        #expect(try connection.execute("SELECT count(*) FROM mark").integer(row: 0, column: 0) == 2)
        #expect(try connection.execute("SHOW transaction_isolation").text(row: 0, column: 0) == "read committed")

        // A body that reads nothing sends nothing.
        let before = statements.count
        try connection.readTransaction("READ ONLY") {}
        #expect(statements.count == before)
    }

    /// A read transaction whose statement fails, or whose BEGIN fails, is rolled back and leaves the connection usable.
    @Test func aFailedReadTransactionLeavesTheConnectionUsable() throws {
        let connection = try PostgresConnection(uri: uri)
        #expect(throws: PostgresError.self) {
            try connection.readTransaction("ISOLATION LEVEL REPEATABLE READ, READ ONLY") {
                try connection.execute("SELECT 1 / 0")
            }
        }
        #expect(throws: PostgresError.self) {
            try connection.readTransaction("ISOLATION LEVEL NO SUCH LEVEL") {
                try connection.execute("SELECT 1")
            }
        }
        #expect(try connection.execute("SELECT 2").integer(row: 0, column: 0) == 2)
        #expect(try connection.execute("SHOW transaction_isolation").text(row: 0, column: 0) == "read committed")
    }

    /// The statements the server holds prepared for `connection`.
    private static func preparedOnServer(_ connection: PostgresConnection) throws -> Int64? {
        try connection.execute("SELECT count(*) FROM pg_prepared_statements").integer(row: 0, column: 0)
    }

    /// A statement run with ``PostgresConnection/executePrepared(_:_:)`` is prepared on its first run, in the same
    /// round trip (with a read transaction's `BEGIN` too), then run by name with other values; a connection that
    /// replaces it prepares it again.
    @Test func aPreparedStatementIsReusedOnItsConnectionAndPreparedAgainOnANewOne() throws {
        let writer = try PostgresConnection(uri: uri)
        try writer.execute("CREATE TABLE person (id text, age bigint)")
        try writer.execute("INSERT INTO person VALUES ('alice', 30), ('bob', 41)")
        let sql = "SELECT age FROM person WHERE id = $1"
        let statements = PostgresStatementCounter()
        let connection = try PostgresConnection(uri: uri, countingIn: statements)
        let alice = try connection.readTransaction("ISOLATION LEVEL REPEATABLE READ, READ ONLY") {
            try connection.executePrepared(sql, ["alice"]).integer(row: 0, column: 0)
        }
        #expect(alice == 30)
        // BEGIN, the statement (prepared with it), COMMIT: one round trip.
        #expect(statements.count == 3 && statements.roundTrips == 1 && statements.preparations == 1)
        let bob = try connection.readTransaction("ISOLATION LEVEL REPEATABLE READ, READ ONLY") {
            try connection.executePrepared(sql, ["bob"]).integer(row: 0, column: 0)
        }
        #expect(bob == 41)
        #expect(try connection.executePrepared(sql, ["carol"]).rowCount == 0)
        #expect(statements.count == 7 && statements.roundTrips == 3 && statements.preparations == 1)
        #expect(connection.preparedCount == 1)
        #expect(try Self.preparedOnServer(connection) == 1)

        let replacement = try PostgresConnection(uri: uri, countingIn: statements)
        #expect(replacement.preparedCount == 0)
        #expect(try replacement.executePrepared(sql, ["bob"]).integer(row: 0, column: 0) == 41)
        #expect(statements.preparations == 2 && replacement.preparedCount == 1)
    }

    /// A statement is known as prepared only once the server prepared it: after a failed preparation, or a `BEGIN`
    /// that failed before it, the next run prepares it again; one the server lost (`DEALLOCATE ALL`) fails once with
    /// the server's word and is prepared again by the run after.
    @Test func aStatementThatWasNotPreparedIsNeverRunByName() throws {
        let statements = PostgresStatementCounter()
        let connection = try PostgresConnection(uri: uri, countingIn: statements)
        #expect(throws: PostgresError.self) { try connection.executePrepared("SELECT nothing FROM nowhere") }
        #expect(connection.preparedCount == 0 && statements.preparations == 1)
        #expect(throws: PostgresError.self) {
            try connection.readTransaction("ISOLATION LEVEL NO SUCH LEVEL") { try connection.executePrepared("SELECT 1 + $1::bigint", ["1"]) }
        }
        #expect(connection.preparedCount == 0)
        #expect(try Self.preparedOnServer(connection) == 0)
        #expect(try connection.executePrepared("SELECT 1 + $1::bigint", ["1"]).integer(row: 0, column: 0) == 2)
        #expect(connection.preparedCount == 1 && statements.preparations == 3)

        try connection.execute("DEALLOCATE ALL")
        #expect(throws: PostgresError.self) { try connection.executePrepared("SELECT 1 + $1::bigint", ["2"]) }
        #expect(try connection.executePrepared("SELECT 1 + $1::bigint", ["2"]).integer(row: 0, column: 0) == 3)
        #expect(connection.preparedCount == 1 && statements.preparations == 4)
    }
}
