import Foundation
import StillpointPostgresTestSupport
import Testing

/// Ctrl-C while another session holds a lock on the store's tables (a PostgreSQL `LOCK TABLE`): the command
/// cancels what waits and ends within a second, sending no new statement that would wait on the same lock; a
/// second Ctrl-C ends it at once.
@Suite("PostgreSQL: Ctrl-C while a lock is held", .serialized, .enabled(if: PostgresTestServer.isWanted))
struct InterruptWhileLockedTests {
    /// A bound far below the 35 s the report used to wait, and wide enough for a loaded machine to schedule the
    /// exit of a tool that stops within its second.
    static let bound = Duration.seconds(2)

    private func makeStore(in tool: ToolRunner) async throws -> String {
        let uri = try PostgresTestServer.shared().makeDatabase("interrupt")
        let demo = try await tool.run(["demo", "--sessions", "200", "--years", "1", "--ending-at", "2025-05-31T20:00:00Z", "--store", uri])
        try #require(demo.status == 0, "\(demo.standardError)")
        return uri
    }

    @Test func ctrlCEndsEveryCommandWaitingOnALockWithinASecond() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let uri = try await makeStore(in: tool)
        let csv = tool.path("more.csv")
        try "start,duration\n2025-05-31T06:00:00Z,1200\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let lock = try ServerLock(uri)
        defer { lock.release() }
        let commands: [[String]] = [
            ["report", "--store", uri, "--as-of", ReportCommandTests.asOf],
            ["report", "--store", uri, "--format", "json", "--output", tool.path("report.json")],
            ["report", "--watch", "--store", uri],
            ["sessions", "--store", uri],
            ["sessions", "--live", "--store", uri],
            ["export", "--store", uri, "--output", tool.path("out.csv")],
            ["check", "--store", uri],
            ["imports", "--store", uri],
            ["import", csv, "--format", "csv", "--store", uri],
        ]
        for command in commands {
            let running = try RunningTool(command, in: tool)
            defer { running.kill() }
            try #require(try lock.waitForWaiters(within: .seconds(60)), "\(command) never waited; \(running.standardError)")
            let (status, took) = running.interruptAndWaitForExit(within: .seconds(60))
            #expect(status == 130, "\(command): \(running.standardError)")
            #expect(took < Self.bound, "\(command) took \(took) to stop: \(running.standardError)")
            // Let the server see the statements of a tool killed by the signal go (they wait for the lock until
            // it is released, which the next command would otherwise see waiting).
            lock.release()
            try lock.lock()
        }
    }

    /// The report, the reproduction: its statistics are cancelled on the server and it asks nothing more, so no
    /// statement of it is left waiting on the lock once it has exited.
    @Test func ctrlCOnAReportLeavesNoStatementWaitingOnTheLock() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let uri = try await makeStore(in: tool)
        let lock = try ServerLock(uri)
        defer { lock.release() }
        let running = try RunningTool(["report", "--store", uri, "--as-of", ReportCommandTests.asOf], in: tool)
        defer { running.kill() }
        try #require(try lock.waitForWaiters(within: .seconds(60)), "the report never waited; \(running.standardError)")
        let (status, took) = running.interruptAndWaitForExit(within: .seconds(60))
        #expect(status == 130, "\(running.standardError)")
        #expect(took < Self.bound, "took \(took): \(running.standardError)")
        #expect(running.standardError.contains("stopped by Ctrl-C:"), "\(running.standardError)")
        // Whether it let go by itself or was ended at the bound (as under the thread sanitizer, where cancelling
        // takes longer), it asked nothing more of the server after the Ctrl-C.
        try await Task.sleep(for: .milliseconds(500))
        #expect(try lock.waitingProcesses().isEmpty, "a statement of the report still waits on the lock")
    }

    @Test func aSecondCtrlCEndsTheReportAtOnce() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let uri = try await makeStore(in: tool)
        let lock = try ServerLock(uri)
        defer { lock.release() }
        let running = try RunningTool(["report", "--store", uri, "--as-of", ReportCommandTests.asOf], in: tool)
        defer { running.kill() }
        try #require(try lock.waitForWaiters(within: .seconds(60)), "the report never waited; \(running.standardError)")
        running.interrupt()
        let (status, took) = running.interruptAndWaitForExit(within: .seconds(60))
        #expect(status == 130, "\(running.standardError)")
        #expect(took < Self.bound, "took \(took): \(running.standardError)")
    }
}
