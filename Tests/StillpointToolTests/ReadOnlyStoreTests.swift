import Foundation
import Testing

/// End to end: commands that only read open the store read-only, so they never wait for a writer and work on a
/// read-only medium.
@Suite("Reading never blocks on writing", .serialized)
struct ReadOnlyStoreTests {
    @Test(arguments: [["report", "--format", "json"], ["export", "--output", "out.csv"], ["check"]])
    func aReadingCommandFinishesWhileAnotherProcessHoldsTheWriteLock(command: [String]) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let status = try StoreFile(path: store).whileWriteLocked { () -> Int32? in
            // Opening for writing would wait out its 10 s busy timeout and fail with "database is locked".
            let running = try RunningTool(command + ["--store", store], in: tool)
            let status = running.waitForExit(within: .seconds(8))
            #expect(status == 0, "\(running.standardError)")
            return status
        }
        #expect(status == 0)
        // The uncommitted session of the writer was not seen.
        if command[0] == "export" {
            let lines = try String(contentsOfFile: tool.path("out.csv"), encoding: .utf8).split(whereSeparator: \.isNewline)
            #expect(lines.count == 1_501)
        }
    }

    @Test(.enabled(if: TestMount.available, "mounting needs root and a system that allows it"))
    func aStoreOnAReadOnlyMediumIsReported() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        try FileManager.default.createDirectory(atPath: tool.path("source"), withIntermediateDirectories: true)
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: store + suffix) {
            try FileManager.default.moveItem(atPath: store + suffix, toPath: tool.path("source/practice.sqlite\(suffix)"))
        }
        let before = try Data(contentsOf: URL(fileURLWithPath: tool.path("source/practice.sqlite")))
        let mount = try TestMount.readOnlyBind(tool.path("source"), at: tool.path("medium"))
        defer { mount.unmount() }
        let readOnlyStore = tool.path("medium/practice.sqlite")
        #expect(!FileManager.default.createFile(atPath: tool.path("medium/probe"), contents: nil))

        let report = try await tool.run(["report", "--store", readOnlyStore, "--format", "json", "--as-of", ReportCommandTests.asOf])
        #expect(report.status == 0, "\(report.standardError)")
        #expect(report.standardOutput.contains("\"session_count\""))
        let check = try await tool.run(["check", "--store", readOnlyStore])
        #expect(check.status == 0, "\(check.standardError)")
        #expect(check.standardOutput.contains("1500 sessions"))
        let export = try await tool.run(["export", "--store", readOnlyStore, "--output", tool.path("sessions.csv")])
        #expect(export.status == 0, "\(export.standardError)")
        // Writing is refused clearly.
        let demo = try await tool.run(["demo", "--sessions", "5", "--store", readOnlyStore])
        #expect(demo.status == 73, "\(demo.standardError)")
        #expect(demo.standardError.contains("cannot be written"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: readOnlyStore)) == before)
    }
}
