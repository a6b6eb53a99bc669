import Foundation
import PracticeLog
import StillpointCore
import StillpointPostgres
import StillpointPostgresTestSupport
import StillpointTestSupport
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

    /// Issue 23 asks for the session table hash-partitioned by practitioner. The store's own DDL, copied into a
    /// table `PARTITION BY HASH (practitioner)`, shows how far that goes (docs/scaling.md): PostgreSQL refuses
    /// the row-id key `_id` alone; with the key `(practitioner, _id)` it takes the table, its partitions and
    /// every index the store declares, and one practitioner's sessions are read from one partition; what it
    /// still refuses is the import runs' link table's foreign key to a session's `_id`, the seam's reference to
    /// a row by its id alone.
    @Test func aHashPartitionedCopyTakesEveryIndexButNotTheRowIDReferences() throws {
        let connection = try open()
        let ddl = PostgresSchema(Session.schema).statements(existingTables: [])
        let table = #""Session""#, copy = #""PartitionedSession""#
        let create = try #require(ddl.first { $0.hasPrefix("CREATE TABLE IF NOT EXISTS \(table) (") })
        let partitioned = create.replacingOccurrences(of: table, with: copy) + #" PARTITION BY HASH ("practitioner")"#

        // As the store declares it: the primary key lacks the partition column.
        let refused = #expect(throws: PostgresError.self) { try connection.execute(partitioned) }
        #expect(refused?.message.contains("must include all partitioning columns") == true, "\(String(describing: refused))")

        // With the practitioner leading the key, the table, four partitions and each of the store's indexes are made.
        let keyed = partitioned.replacingOccurrences(of: #""_id" bigserial PRIMARY KEY, "#, with: #""_id" bigserial, "#)
            .replacingOccurrences(of: ") PARTITION BY", with: #", PRIMARY KEY ("practitioner", "_id")) PARTITION BY"#)
        try connection.execute(keyed)
        for remainder in 0..<4 {
            try connection.execute(#"CREATE TABLE "PartitionedSession_\#(remainder)" PARTITION OF \#(copy) FOR VALUES WITH (MODULUS 4, REMAINDER \#(remainder))"#)
        }
        let indexes = ddl.filter { $0.hasPrefix("CREATE") && $0.contains("INDEX") && $0.contains(" ON \(table) (") }
        #expect(indexes.count == Session.entity.indexes.count)
        for index in indexes {
            // Index names are the schema's, not the table's: each copy gets a name of its own.
            try connection.execute(index.replacingOccurrences(of: #"INDEX IF NOT EXISTS ""#, with: #"INDEX IF NOT EXISTS "Partitioned_"#)
                .replacingOccurrences(of: " ON \(table) (", with: " ON \(copy) ("))
        }
        try connection.execute(#"""
            INSERT INTO "PartitionedSession" ("practitioner", "start", "duration", "key") VALUES (1, 10, 600, 'a'), (2, 20, 600, 'a'), (1, 30, 600, 'b')
            """#)
        // A session's key is unique per practitioner, not across them.
        #expect(throws: PostgresError.self) {
            try connection.execute(#"INSERT INTO "PartitionedSession" ("practitioner", "start", "duration", "key") VALUES (1, 40, 600, 'a')"#)
        }
        let plan = try connection.execute(#"EXPLAIN SELECT "start" FROM "PartitionedSession" WHERE "practitioner" = 1 ORDER BY "start""#)
        let text = (0..<plan.rowCount).compactMap { plan.text(row: $0, column: 0) }.joined(separator: "\n")
        #expect(text.components(separatedBy: #" on "PartitionedSession_"#).count == 2, "one partition read:\n\(text)")
        let starts = try connection.execute(#"SELECT "start" FROM "PartitionedSession" WHERE "practitioner" = 1 ORDER BY "start""#)
        #expect((0..<starts.rowCount).compactMap { starts.text(row: $0, column: 0) } == ["10", "30"])

        // What is left: the link table refers to a session by its `_id` alone, which no partitioned table can
        // make unique.
        let link = #expect(throws: PostgresError.self) {
            try connection.execute(#"ALTER TABLE "_ImportRun_sessions" ADD FOREIGN KEY ("target") REFERENCES "PartitionedSession" ("_id")"#)
        }
        #expect(link?.message.contains("no unique constraint matching given keys") == true, "\(String(describing: link))")
    }
}
