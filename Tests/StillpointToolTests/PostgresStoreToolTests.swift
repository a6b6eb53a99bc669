import Foundation
import PracticeLog
import StillpointCore
import StillpointPostgres
import StillpointPostgresTestSupport
import Testing

/// End to end on a PostgreSQL store named by its URI: demo, import, report, check and export, a watch and a live
/// list of sessions woken by another process's import, and the errors of a server that cannot be reached or
/// holds no store.
@Suite("stillpoint --store postgresql://", .serialized, .enabled(if: PostgresTestServer.isWanted))
struct PostgresStoreToolTests {
    private func makeDatabase() throws -> String {
        try PostgresTestServer.shared().makeDatabase("tool")
    }

    @Test func demoImportReportCheckAndExportWorkOnAPostgreSQLStore() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let uri = try makeDatabase()
        let demo = try await tool.run(["demo", "--sessions", "1500", "--years", "3", "--ending-at", "2025-05-31T20:00:00Z", "--store", uri])
        #expect(demo.status == 0, "\(demo.standardError)")
        #expect(demo.standardOutput.contains("wrote 1500 demo sessions"))

        // The same history in a SQLite store gives the same report, line for line.
        let file = try await ReportCommandTests.makeStore(tool)
        let onServer = try await tool.run(["report", "--store", uri, "--format", "json", "--as-of", ReportCommandTests.asOf])
        let onFile = try await tool.run(["report", "--store", file, "--format", "json", "--as-of", ReportCommandTests.asOf])
        #expect(onServer.status == 0, "\(onServer.standardError)")
        #expect(onServer.standardOutput == onFile.standardOutput)

        // Exports of the same history are the same bytes.
        for format in ["csv", "jsonl"] {
            let (serverFile, localFile) = (tool.path("server.\(format)"), tool.path("file.\(format)"))
            let fromServer = try await tool.run(["export", "--store", uri, "--format", format, "--output", serverFile])
            let fromFile = try await tool.run(["export", "--store", file, "--format", format, "--output", localFile])
            #expect(fromServer.status == 0, "\(fromServer.standardError)")
            #expect(fromFile.status == 0, "\(fromFile.standardError)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: serverFile)) == Data(contentsOf: URL(fileURLWithPath: localFile)))
        }

        let csv = tool.path("more.csv")
        try "start,duration\n2025-05-31T06:00:00Z,1200\n2025-05-31T18:30:00Z,900\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let imported = try await tool.run(["import", csv, "--format", "csv", "--store", uri])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("2 new"), "\(imported.standardOutput)")
        // Again: nothing is duplicated.
        let again = try await tool.run(["import", csv, "--format", "csv", "--store", uri])
        #expect(again.standardOutput.contains("0 new"), "\(again.standardOutput)")
        #expect(try await ImportCommandTests().count(uri, in: tool) == 1502)

        let check = try await tool.run(["check", "--store", uri])
        #expect(check.status == 0, "\(check.standardError)")
        #expect(check.standardOutput.contains("1502 sessions"), "\(check.standardOutput)")
    }

    @Test func anImportInAnotherProcessWakesTheWatch() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let uri = try makeDatabase()
        let demo = try await tool.run(["demo", "--sessions", "1500", "--years", "3", "--ending-at", "2025-05-31T20:00:00Z", "--store", uri])
        #expect(demo.status == 0, "\(demo.standardError)")
        let watching = try RunningTool(["report", "--watch", "--store", uri, "--as-of", ReportCommandTests.asOf], in: tool)
        defer { watching.kill() }
        try #require(watching.waitForError(within: .seconds(60)) { $0.contains("watching the store") },
                     "the watch did not start; stderr: \(watching.standardError)")
        #expect(watching.waitForOutput(within: .seconds(20)) { WatchReportTests.sessionCounts(in: $0) == [1500] },
                "\(watching.standardOutput)")

        let csv = tool.path("new.csv")
        try "start,duration\n2025-05-31T06:00:00Z,1200\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let imported = try await tool.run(["import", csv, "--format", "csv", "--store", uri])
        #expect(imported.status == 0, "\(imported.standardError)")
        let refreshed = watching.waitForOutput(within: .seconds(60)) { WatchReportTests.sessionCounts(in: $0).last == 1501 }
        #expect(refreshed, "no refreshed report; stdout: \(watching.standardOutput)\nstderr: \(watching.standardError)")
        let (status, _) = watching.interruptAndWaitForExit(within: .seconds(20))
        #expect(status == 0, "\(watching.standardError)")
    }

    /// The server goes away while a report watches it: one notice that the watch lost it and keeps trying (not
    /// one per retry), one when it is back, and the report follows an import made after.
    @Test func aWatchSaysOnceThatTheServerIsAwayAndOnceThatItIsBack() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        // A server of its own: stopping the shared one would fail the tests running beside this one.
        let server = try PostgresTestServer.ownServer()
        let uri = try server.makeDatabase("watch")
        let demo = try await tool.run(["demo", "--sessions", "1500", "--years", "3", "--ending-at", "2025-05-31T20:00:00Z", "--store", uri])
        #expect(demo.status == 0, "\(demo.standardError)")
        let watching = try RunningTool(["report", "--watch", "--store", uri, "--as-of", ReportCommandTests.asOf], in: tool)
        defer { watching.kill() }
        try #require(watching.waitForError(within: .seconds(60)) { $0.contains("watching the store") },
                     "the watch did not start; stderr: \(watching.standardError)")
        #expect(watching.waitForOutput(within: .seconds(20)) { WatchReportTests.sessionCounts(in: $0) == [1500] },
                "\(watching.standardOutput)")

        let place = StoreLocation.postgres(uri).displayPath
        try server.stop()
        #expect(watching.waitForError(within: .seconds(30)) { $0.contains("lost the PostgreSQL server at \(place)") },
                "no notice of the lost server; stderr: \(watching.standardError)")
        #expect(watching.standardError.contains("still watching"), "\(watching.standardError)")
        // Some retries (every 0.3 s) while the server stays away, each silent.
        try await Task.sleep(for: .seconds(2))
        try server.start()
        #expect(watching.waitForError(within: .seconds(30)) { $0.contains("the PostgreSQL server at \(place) is back") },
                "no notice of the server's return; stderr: \(watching.standardError)")

        let csv = tool.path("new.csv")
        try "start,duration\n2025-05-31T06:00:00Z,1200\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let imported = try await tool.run(["import", csv, "--format", "csv", "--store", uri])
        #expect(imported.status == 0, "\(imported.standardError)")
        let refreshed = watching.waitForOutput(within: .seconds(60)) { WatchReportTests.sessionCounts(in: $0).last == 1501 }
        #expect(refreshed, "no refreshed report; stdout: \(watching.standardOutput)\nstderr: \(watching.standardError)")
        let (status, _) = watching.interruptAndWaitForExit(within: .seconds(20))
        #expect(status == 0, "\(watching.standardError)")
        #expect(watching.standardError.components(separatedBy: "lost the PostgreSQL server").count == 2, "\(watching.standardError)")
        #expect(watching.standardError.components(separatedBy: "is back; watching").count == 2, "\(watching.standardError)")
    }

    /// `sessions --live` follows an import made in another process, and says once that the server is away while it
    /// is, and once that it is back.
    @Test func aLiveListFollowsImportsAndSaysOnceThatTheServerIsAwayAndBack() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let server = try PostgresTestServer.ownServer()
        let uri = try server.makeDatabase("live")
        let demo = try await tool.run(["demo", "--sessions", "100", "--years", "1", "--ending-at", "2025-05-31T20:00:00Z", "--store", uri])
        #expect(demo.status == 0, "\(demo.standardError)")
        let following = try RunningTool(["sessions", "--live", "--limit", "3", "--store", uri], in: tool)
        defer { following.kill() }
        try #require(following.waitForError(within: .seconds(60)) { $0.contains("following the store") },
                     "the live list did not start; stderr: \(following.standardError)")
        #expect(following.waitForOutput(within: .seconds(20)) { SessionsCommandTests.snapshots(in: $0).first?.count == 3 },
                "\(following.standardOutput)")

        let place = StoreLocation.postgres(uri).displayPath
        try server.stop()
        #expect(following.waitForError(within: .seconds(30)) { $0.contains("lost the PostgreSQL server at \(place)") },
                "no notice of the lost server; stderr: \(following.standardError)")
        try server.start()
        #expect(following.waitForError(within: .seconds(30)) { $0.contains("the PostgreSQL server at \(place) is back") },
                "no notice of the server's return; stderr: \(following.standardError)")
        let csv = try SessionsCommandTests.writeSessions(["2025-06-01T06:00:00Z,1200", "2025-06-02T06:00:00Z,600"], in: tool)
        let imported = try await tool.run(["import", csv, "--format", "csv", "--store", uri])
        #expect(imported.status == 0, "\(imported.standardError)")
        let caughtUp = following.waitForOutput(within: .seconds(60)) { output in
            SessionsCommandTests.snapshots(in: output).last?.prefix(2).map { $0.dropFirst(2).prefix(16) } == ["2025-06-02 06:00", "2025-06-01 06:00"]
        }
        #expect(caughtUp, "the list did not catch up; stdout: \(following.standardOutput)")
        let (status, _) = following.interruptAndWaitForExit(within: .seconds(20))
        #expect(status == 0, "\(following.standardError)")
        #expect(following.standardError.components(separatedBy: "lost the PostgreSQL server").count == 2, "\(following.standardError)")
    }

    /// Two processes import at once while this one watches the store: every session either one saved reaches the
    /// watcher in a change set, none is skipped (PostgreSQL numbers change-log entries before they commit).
    @Test func twoProcessesImportingAtOnceAreWatchedWithoutAGap() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let uri = try makeDatabase()
        let container = try PersistentContainer(schema: Session.schema, postgres: uri)
        let changes = container.changeSets
        let watch = container.observeOtherProcesses(every: .milliseconds(50))
        defer { watch.cancel() }
        let seen = Task {
            var inserted: Set<Int64> = []
            for await changeSet in changes {
                inserted.formUnion(changeSet.inserted.compactMap(\.rowID))
                if inserted.count == 10_000 { break }
            }
            return inserted
        }

        var imports: [RunningTool] = []
        for process in 0..<2 {
            let csv = tool.path("sessions-\(process).csv")
            // 5,000 sessions each (three import batches), an hour apart, interleaved in time between the files.
            let rows = (0..<5_000).map { index in
                let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index * 2 + process) * 3_600)
                return "\(ISO8601DateFormatter().string(from: start)),600"
            }
            try ("start,duration\n" + rows.joined(separator: "\n") + "\n").write(toFile: csv, atomically: true, encoding: .utf8)
            imports.append(try RunningTool(["import", csv, "--format", "csv", "--store", uri], in: tool))
        }
        for running in imports {
            #expect(running.waitForExit(within: .seconds(120)) == 0, "\(running.standardError)")
        }
        let timeout = Task {
            try? await Task.sleep(for: .seconds(30))
            seen.cancel()
        }
        let inserted = await seen.value
        timeout.cancel()
        let stored = try await container.newBackgroundContext().perform { context in
            Set(try context.fetch(FetchRequest(Session.self)).compactMap(\.objectID.rowID))
        }
        #expect(stored.count == 10_000)
        #expect(inserted == stored, "\(stored.subtracting(inserted).count) saved sessions never reached the watcher")
    }

    @Test func aServerThatCannotBeReachedIsNamedWithoutThePassword() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        // Port 1 on the loopback address: nothing listens there.
        let result = try await tool.run(["report", "--store", "postgresql://practice:hunter2@127.0.0.1:1/practice"])
        #expect(result.status == 69)
        #expect(result.standardError.contains("127.0.0.1"), "\(result.standardError)")
        #expect(result.standardError.contains("check that the server runs"), "\(result.standardError)")
        #expect(!result.standardError.contains("hunter2"), "\(result.standardError)")
    }

    @Test func aURIThatCannotBeReadIsAMistakeOnTheCommandLine() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let result = try await tool.run(["report", "--store", "postgresql://me:hunter2@[::1/practice"])
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains("is not a PostgreSQL connection URI"), "\(result.standardError)")
        #expect(!result.standardError.contains("hunter2"), "\(result.standardError)")
    }

    /// Like a store file that is not there: 66, the database named, and how to make it.
    @Test(arguments: [["report"], ["import", "sessions.csv", "--format", "csv"], ["demo"]])
    func aDatabaseThatDoesNotExistIsAMissingStore(command: [String]) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        try "start,duration\n2025-05-31T06:00:00Z,1200\n".write(toFile: tool.path("sessions.csv"), atomically: true, encoding: .utf8)
        let uri = try PostgresTestServer.shared().uri(database: "no_such_practice") + "&password=hunter2"
        let result = try await tool.run(command.map { $0 == "sessions.csv" ? tool.path($0) : $0 } + ["--store", uri])
        #expect(result.status == 66, "\(result.standardError)")
        #expect(result.standardError.contains("there is no store at \(StoreLocation.postgres(uri).displayPath)"), "\(result.standardError)")
        #expect(result.standardError.contains("the database no_such_practice does not exist"), "\(result.standardError)")
        #expect(result.standardError.contains("createdb no_such_practice"), "\(result.standardError)")
        // A command that would make the store says to run it again; one that reads says which one makes it.
        let next = command[0] == "report" ? "stillpoint demo --store URI" : "then run this command again"
        #expect(result.standardError.contains(next), "\(result.standardError)")
        #expect(!result.standardError.contains("hunter2"), "\(result.standardError)")
    }

    @Test func aDatabaseWithoutAStoreIsNotOneToReport() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let uri = try makeDatabase()
        let result = try await tool.run(["report", "--store", uri])
        #expect(result.status == 66)
        #expect(result.standardError.contains("there is no store in"), "\(result.standardError)")
        #expect(result.standardError.contains("stillpoint import"), "\(result.standardError)")
    }
}
