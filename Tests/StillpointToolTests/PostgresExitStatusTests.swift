import Foundation
import StillpointPostgresTestSupport
import Testing

/// The exit statuses of PostgreSQL's faults, on a throwaway server: a URI whose port or parameter is wrong is a
/// mistake on the command line (64), not a server that cannot be reached (69).
@Suite("exit statuses on PostgreSQL", .serialized, .enabled(if: PostgresTestServer.isWanted))
struct PostgresExitStatusTests {
    private static let commands = [["check"], ["report"], ["sessions"], ["imports"], ["import", "SESSIONS", "--format", "csv"]]

    private func run(_ command: [String], store: String, in tool: ToolRunner) throws -> ToolRunner.Result {
        let csv = try SessionsCommandTests.writeSessions(["2025-05-31T06:00:00Z,600"], in: tool)
        return try tool.run(command.map { $0 == "SESSIONS" ? csv : $0 } + ["--store", store])
    }

    @Test func aPortThatIsNotANumberOrAParameterLibpqRefusesIsAMistakeOnTheCommandLine() throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let uri = try PostgresTestServer.shared().makeDatabase("usage")
        let cases = [
            ("postgresql://127.0.0.1:54x2/practice", "port '54x2' is not a number"),
            ("postgresql://me:pw@127.0.0.1:99999/practice", "port is not a number from 1 to 65535"),
            ("host=127.0.0.1 port=abc dbname=practice", "port 'abc' is not a number"),
            (uri + "&sslmode=bogus", "invalid sslmode value"),
            (uri + "&target_session_attrs=bogus", "invalid target_session_attrs value"),
        ]
        for (store, reason) in cases {
            for command in Self.commands {
                let result = try run(command, store: store, in: tool)
                #expect(result.status == 64, "\(store), \(command): \(result.standardError)")
                #expect(result.standardError.contains(reason), "\(store), \(command): \(result.standardError)")
                #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
            }
        }
    }
}
