import Foundation
@testable import StillpointPostgres
import StillpointPostgresTestSupport
import Testing

/// What the commit listener looks at before each ring: which store it is, the change log's last entry, and what
/// is running, in one round trip once the change log is known to be there.
@Suite("PostgresLogState", .serialized, .enabled(if: PostgresTestServer.isWanted))
struct PostgresLogStateTests {
    let uri: String

    init() throws {
        uri = try PostgresTestServer.shared().makeDatabase("logstate")
        try PostgresConnection(uri: uri).execute(PostgresChangeLog.createTable)
    }

    @Test func theLookBeforeARingIsOneRoundTripAndAgreesWithTheSeparateLooks() throws {
        let writer = try PostgresConnection(uri: uri)
        let last = try PostgresChangeLog.record(author: "look", timestamp: 0, changes: "{}", origin: "", on: writer)
        let counter = PostgresStatementCounter()
        let listener = try PostgresConnection(uri: uri, countingIn: counter)
        let separate = try PostgresLogState(on: listener)
        let (separatePosition, separateNext) = try PostgresChangeLog.currentPositionAndNextTransaction(on: listener)

        let before = counter.roundTrips
        let (state, position, next) = try PostgresLogState.withPosition(on: listener)
        #expect(counter.roundTrips - before == 1)
        #expect(state == separate)
        #expect(state.lastEntry == last)
        #expect(position >= separatePosition.watermark && next >= separateNext)
        #expect(position <= next)
    }

    /// The listener looks before every ring: its statement is planned once per connection, and a look after a
    /// new entry still sees it.
    @Test func theLookIsPlannedOncePerConnection() throws {
        let counter = PostgresStatementCounter()
        let listener = try PostgresConnection(uri: uri, countingIn: counter)
        let writer = try PostgresConnection(uri: uri)
        for look in 0..<3 {
            let last = try PostgresChangeLog.record(author: "look \(look)", timestamp: 0, changes: "{}", origin: "", on: writer)
            let (state, _, _) = try PostgresLogState.withPosition(on: listener)
            #expect(state.lastEntry == last)
        }
        #expect(counter.preparations == 1)
        #expect(counter.roundTrips == 3)
    }

    @Test func aTransactionRunningIsSeenBelowTheNextId() throws {
        let running = try PostgresConnection(uri: uri)
        try running.execute("BEGIN")
        let text = try running.execute("SELECT pg_current_xact_id()::text").text(row: 0, column: 0)
        let id = try #require(text.flatMap(UInt64.init))
        let (_, position, next) = try PostgresLogState.withPosition(on: try PostgresConnection(uri: uri))
        #expect(position <= id, "the running transaction holds the change log's position back")
        #expect(position <= next)
        try running.execute("ROLLBACK")
    }

    /// A change log dropped since the last look: the state says so (and the listener stops following).
    @Test func aChangeLogDroppedSinceTheLastLookShowsAsNone() throws {
        let listener = try PostgresConnection(uri: uri)
        let followed = try PostgresLogState(on: listener)
        #expect(!followed.store.hasSuffix("/none"))
        try PostgresConnection(uri: uri).execute("DROP TABLE \(PostgresChangeLog.table)")
        let (state, _, _) = try PostgresLogState.withPosition(on: listener)
        #expect(state.store.hasSuffix("/none") && state != followed && state.lastEntry == nil)
        try PostgresConnection(uri: uri).execute(PostgresChangeLog.createTable)
    }

    /// The look is prepared on the listener's connection: a change log dropped after it was prepared still shows
    /// as none, and one made again is looked at afresh (a new store, its own entries).
    @Test func aPreparedLookFollowsAChangeLogDroppedAndMadeAgain() throws {
        let listener = try PostgresConnection(uri: uri)
        let (followed, _, _) = try PostgresLogState.withPosition(on: listener)
        try PostgresConnection(uri: uri).execute("DROP TABLE \(PostgresChangeLog.table)")
        let (dropped, _, _) = try PostgresLogState.withPosition(on: listener)
        #expect(dropped.store.hasSuffix("/none") && dropped.lastEntry == nil)
        let writer = try PostgresConnection(uri: uri)
        try writer.execute(PostgresChangeLog.createTable)
        let last = try PostgresChangeLog.record(author: "again", timestamp: 0, changes: "{}", origin: "", on: writer)
        let (again, _, _) = try PostgresLogState.withPosition(on: listener)
        #expect(!again.store.hasSuffix("/none") && again.store != followed.store && again.lastEntry == last)
    }
}
