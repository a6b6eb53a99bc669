import Foundation
import StillpointPostgres
import StillpointPostgresTestSupport
import Testing

/// A statement the PostgreSQL server cancels by itself (a `statement_timeout`, an administrator's
/// `pg_cancel_backend`) is neither a bug (70, `Swift.CancellationError`) nor a report of failed statistics with
/// nothing said (1): every command says in one line that the server cancelled it and why, and exits 75
/// (`EX_TEMPFAIL`).
@Suite("PostgreSQL: statements the server cancels", .serialized, .enabled(if: PostgresTestServer.isWanted))
struct ServerCancellationTests {
    /// A database with a small demo history.
    private func makeStore(in tool: ToolRunner) async throws -> String {
        let uri = try PostgresTestServer.shared().makeDatabase("cancel")
        let demo = try await tool.run(["demo", "--sessions", "200", "--years", "1", "--ending-at", "2025-05-31T20:00:00Z", "--store", uri])
        try #require(demo.status == 0, "\(demo.standardError)")
        return uri
    }

    private func expectCancelled(_ result: ToolRunner.Result, _ command: String, saying reason: String,
                                 sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 75, "\(command): \(result.status) \(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.standardError.contains("the PostgreSQL server cancelled a statement (\(reason))"),
                "\(command): \(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.standardError.contains("statement_timeout"), "\(command): \(result.standardError)", sourceLocation: sourceLocation)
        for text in ExitStatusTests.internals + ["CancellationError"] {
            #expect(!result.standardError.contains(text), "\(command): \(result.standardError)", sourceLocation: sourceLocation)
        }
        // The last line says it (a text report's live lines come before it on standard error when piped).
        let last = result.standardError.split(separator: "\n").last.map(String.init) ?? ""
        #expect(last.contains("the PostgreSQL server cancelled a statement (\(reason))"), "\(command): \(result.standardError)",
                sourceLocation: sourceLocation)
    }

    @Test func aStatementTimeoutEndsEveryCommandWithItsReasonAndStatus75() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let uri = try await makeStore(in: tool)
        let timed = uri + "&options=-c%20statement_timeout%3D300"
        let csv = tool.path("more.csv")
        try "start,duration\n2025-05-31T06:00:00Z,1200\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let lock = try ServerLock(uri)
        defer { lock.release() }
        let commands: [[String]] = [
            ["report", "--store", timed, "--as-of", ReportCommandTests.asOf],
            ["report", "--store", timed, "--format", "json", "--output", tool.path("report.json")],
            ["sessions", "--store", timed],
            ["export", "--store", timed, "--output", tool.path("out.csv")],
            ["check", "--store", timed],
            ["imports", "--store", timed],
            ["import", csv, "--format", "csv", "--store", timed],
        ]
        for command in commands {
            expectCancelled(try await tool.run(command), command[0], saying: "canceling statement due to statement timeout")
        }
        #expect(!FileManager.default.fileExists(atPath: tool.path("report.json")))
        lock.release()
        // Nothing of the cancelled import stayed: it imports in full once the lock is gone.
        let imported = try await tool.run(["import", csv, "--format", "csv", "--store", uri])
        #expect(imported.status == 0 && imported.standardOutput.contains("1 new"), "\(imported.standardOutput)\(imported.standardError)")
    }

    @Test func aStatementAnAdministratorCancelsEndsTheReportWithItsReasonAndStatus75() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let uri = try await makeStore(in: tool)
        let lock = try ServerLock(uri)
        defer { lock.release() }
        for command in [["report", "--store", uri, "--as-of", ReportCommandTests.asOf], ["sessions", "--store", uri]] {
            let running = try RunningTool(command, in: tool)
            defer { running.kill() }
            try #require(try lock.waitForWaiters(within: .seconds(60)), "\(command[0]) never waited; \(running.standardError)")
            // Every statement that waits, as long as the tool runs: a report's statistics may start waiting
            // one after another.
            let deadline = ContinuousClock.now + .seconds(30)
            while running.isRunning, ContinuousClock.now < deadline {
                for pid in try lock.waitingProcesses() {
                    try lock.observer.execute("SELECT pg_cancel_backend(\(pid))")
                }
                usleep(50_000)
            }
            let status = running.waitForExit(within: .seconds(5))
            expectCancelled(ToolRunner.Result(status: status ?? -1, standardOutput: running.standardOutput,
                                              standardError: running.standardError),
                            command[0], saying: "canceling statement due to user request")
        }
    }
}
