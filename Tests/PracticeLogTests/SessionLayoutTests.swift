import Foundation
import PracticeLog
import StillpointCore
import StillpointPostgres
import StillpointPostgresTestSupport
import Testing

/// PostgreSQL laid out for many practitioners (docs/scaling.md): one practitioner's sessions are one range of an
/// index led by the practitioner, and the practitioner leads the session's and the import run's keys.
@Suite("the session tables' layout on PostgreSQL", .enabled(if: PostgresTestServer.isWanted))
struct SessionLayoutTests {
    private func open() throws -> PostgresConnection {
        let uri = try PracticeStore.postgres.makePlace()
        try PracticeStore.postgres.open(uri, schema: Session.schema).close()
        return try PostgresConnection(uri: uri)
    }

    private func indexDefinitions(_ table: String, _ connection: PostgresConnection) throws -> [String] {
        let result = try connection.execute("SELECT indexdef FROM pg_indexes WHERE tablename = $1", [table])
        return (0..<result.rowCount).compactMap { result.text(row: $0, column: 0)?.replacingOccurrences(of: "\"", with: "") }
    }

    @Test func thePractitionerLeadsTheKeys() throws {
        let connection = try open()
        let sessions = try indexDefinitions("Session", connection)
        #expect(sessions.contains { $0.contains("UNIQUE") && $0.hasSuffix("(practitioner, key)") }, "\(sessions)")
        #expect(sessions.contains { $0.hasSuffix("(practitioner, start)") }, "\(sessions)")
        #expect(!sessions.contains { $0.contains("UNIQUE") && !$0.contains("(practitioner") && !$0.contains("(_id)") }, "\(sessions)")
        let runs = try indexDefinitions("ImportRun", connection)
        #expect(runs.contains { $0.hasSuffix("(practitioner, contentHash)") }, "\(runs)")
    }

    @Test func onePractitionersSessionsAreOneIndexRange() throws {
        let connection = try open()
        try connection.execute("SET enable_seqscan = off")
        let plan = try connection.execute(#"EXPLAIN SELECT "_id" FROM "Session" WHERE "practitioner" = 7 ORDER BY "start""#)
        let text = (0..<plan.rowCount).compactMap { plan.text(row: $0, column: 0) }.joined(separator: "\n")
            .replacingOccurrences(of: "\"", with: "")
        #expect(text.contains("Index Scan using index_Session_practitioner_start"), "\(text)")
        #expect(!text.contains("Sort"), "\(text)")
    }
}
