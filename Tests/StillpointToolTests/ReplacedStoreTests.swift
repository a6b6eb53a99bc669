import Foundation
import StillpointCore
import StillpointPostgres
import StillpointPostgresTestSupport
import Testing

/// A PostgreSQL store whose database is dropped and made again while a command follows it: the new store's
/// changes are not added to what was read from the old one. The command says the store was replaced and stops
/// with 75 (`EX_TEMPFAIL`): running it again shows the new store.
@Suite("PostgreSQL: a store replaced while it is followed", .serialized, .enabled(if: PostgresTestServer.isWanted))
struct ReplacedStoreTests {
    /// Drops the database `uri` names, ending its sessions, and makes it again with a demo history of
    /// `sessions` sessions.
    private func replace(_ uri: String, with sessions: Int, in tool: ToolRunner) async throws {
        let server = try PostgresTestServer.shared()
        let name = try #require(PostgresTarget(uri: uri).database)
        let administration = try PostgresConnection(uri: server.uri())
        try administration.execute("DROP DATABASE \(name) WITH (FORCE)")
        try administration.execute("CREATE DATABASE \(name)")
        let demo = try await tool.run(["demo", "--sessions", String(sessions), "--years", "1", "--ending-at", "2025-05-31T20:00:00Z",
                                 "--store", uri])
        try #require(demo.status == 0, "\(demo.standardError)")
    }

    private func makeStore(in tool: ToolRunner) async throws -> String {
        let uri = try PostgresTestServer.shared().makeDatabase("replaced")
        let demo = try await tool.run(["demo", "--sessions", "200", "--years", "1", "--ending-at", "2025-05-31T20:00:00Z", "--store", uri])
        try #require(demo.status == 0, "\(demo.standardError)")
        return uri
    }

    @Test func aWatchedReportStopsAndSaysSoWhenItsDatabaseIsMadeAgain() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let uri = try await makeStore(in: tool)
        let watching = try RunningTool(["report", "--watch", "--store", uri, "--as-of", ReportCommandTests.asOf], in: tool)
        defer { watching.kill() }
        try #require(watching.waitForError(within: .seconds(60)) { $0.contains("watching the store") },
                     "the watch did not start; stderr: \(watching.standardError)")
        #expect(watching.waitForOutput(within: .seconds(20)) { WatchReportTests.sessionCounts(in: $0) == [200] },
                "\(watching.standardOutput)")

        try await replace(uri, with: 50, in: tool)
        let status = watching.waitForExit(within: .seconds(60))
        #expect(status == 75, "\(watching.standardError)")
        #expect(watching.standardError.contains("the store at \(StoreLocation.postgres(uri).displayPath) was replaced while it was followed"),
                "\(watching.standardError)")
        #expect(WatchReportTests.sessionCounts(in: watching.standardOutput) == [200], "a report mixed the stores: \(watching.standardOutput)")
        let again = try await tool.run(["report", "--store", uri, "--as-of", ReportCommandTests.asOf])
        #expect(WatchReportTests.sessionCounts(in: again.standardOutput) == [50], "\(again.standardOutput)")
    }

    @Test func aLiveListStopsAndSaysSoWhenItsDatabaseIsMadeAgain() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let uri = try await makeStore(in: tool)
        let following = try RunningTool(["sessions", "--live", "--limit", "3", "--store", uri], in: tool)
        defer { following.kill() }
        try #require(following.waitForError(within: .seconds(60)) { $0.contains("following the store") },
                     "the live list did not start; stderr: \(following.standardError)")
        #expect(following.waitForOutput(within: .seconds(20)) { SessionsCommandTests.snapshots(in: $0).first?.count == 3 },
                "\(following.standardOutput)")
        let first = following.standardOutput
        try await replace(uri, with: 50, in: tool)
        let status = following.waitForExit(within: .seconds(60))
        #expect(status == 75, "\(following.standardError)")
        #expect(following.standardError.contains("was replaced while it was followed"), "\(following.standardError)")
        #expect(SessionsCommandTests.snapshots(in: following.standardOutput).count == SessionsCommandTests.snapshots(in: first).count,
                "a list of the new store was shown as a change of the old one: \(following.standardOutput)")
    }
}
