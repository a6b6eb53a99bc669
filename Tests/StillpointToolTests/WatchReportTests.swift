import Foundation
import Testing

/// End to end: `report --watch` follows changes another process saves, and Ctrl-C ends it.
@Suite("stillpoint report --watch", .serialized)
struct WatchReportTests {
    /// The session counts of the whole reports printed so far, in order (the live lines before them have a
    /// symbol first, so only the reports' own lines match).
    static func sessionCounts(in output: String) -> [Int] {
        output.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("Sessions "), let count = line.split(separator: " ").last else { return nil }
            return Int(count.replacingOccurrences(of: ",", with: ""))
        }
    }

    @Test(.timeLimit(.minutes(3)))
    func anImportInAnotherProcessRefreshesTheReportAndCtrlCEndsTheWatch() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let watching = try RunningTool(["report", "--watch", "--store", store, "--as-of", ReportCommandTests.asOf], in: tool)
        defer { watching.kill() }

        try #require(watching.waitForError(within: .seconds(60)) { $0.contains("watching the store") },
                     "the watch did not start; stderr: \(watching.standardError)")
        // Standard output and standard error are read apart: the report may arrive just after the line above.
        #expect(watching.waitForOutput(within: .seconds(20)) { Self.sessionCounts(in: $0) == [1500] }, "\(watching.standardOutput)")

        // Three sessions before the report's instant, saved by a second process.
        let file = tool.path("new-sessions.csv")
        try "start,duration\n2025-05-31T06:00:00Z,1200\n2025-05-31T18:30:00Z,900\n2025-06-01T07:00:00Z,600\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try await tool.run(["import", file, "--format", "csv", "--store", store])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("3 new"), "\(imported.standardOutput)")

        let refreshed = watching.waitForOutput(within: .seconds(60)) { Self.sessionCounts(in: $0).last == 1503 }
        #expect(refreshed, "no refreshed report; stdout: \(watching.standardOutput)\nstderr: \(watching.standardError)")

        let (status, took) = watching.interruptAndWaitForExit(within: .seconds(20))
        #expect(status == 0, "Ctrl-C after a complete report; stderr: \(watching.standardError)")
        #expect(took < .seconds(10))
        #expect(watching.standardError.contains("stopped watching"), "\(watching.standardError)")
        // The first report and the refreshed one, each whole. Under the thread sanitizer the refreshed report was
        // once printed twice for the one import (the same count each time); never a count between or beyond.
        let counts = Self.sessionCounts(in: watching.standardOutput)
        #expect(counts.first == 1500 && counts.last == 1503 && Set(counts) == [1500, 1503] && counts.count <= 3,
                "\(watching.standardOutput)")

        // The store is intact: another report reads every session.
        #expect(try await ImportCommandTests().count(store, in: tool) == 1503)
    }

    /// On a terminal a refreshed report replaces the one before it: the cursor goes home and the screen is
    /// cleared before it, instead of a whole new report printed below.
    @Test(.timeLimit(.minutes(3)), .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) for a terminal"))
    func onATerminalARefreshRedrawsInPlace() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let watching = try RunningTool(["report", "--watch", "--store", store, "--as-of", ReportCommandTests.asOf],
                                       in: tool, terminal: true)
        defer { watching.kill() }
        try #require(watching.waitForOutput(within: .seconds(60)) { $0.contains("watching the store") },
                     "the watch did not start: \(watching.standardOutput)")
        #expect(!watching.standardOutput.contains("\u{1B}[H\u{1B}[2J"))

        let file = tool.path("new-sessions.csv")
        try "start,duration\n2025-05-31T06:00:00Z,1200\n".write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try await tool.run(["import", file, "--format", "csv", "--store", store])
        #expect(imported.status == 0, "\(imported.standardError)")

        let redrawn = watching.waitForOutput(within: .seconds(60)) { output in
            guard let clear = output.range(of: "\u{1B}[H\u{1B}[2J", options: .backwards) else { return false }
            return Self.sessionCounts(in: String(output[clear.upperBound...]).replacingOccurrences(of: "\r", with: "")) == [1501]
        }
        #expect(redrawn, "no report redrawn in place: \(watching.standardOutput.suffix(400))")
    }

    /// Many change sets saved while the watcher cannot keep up (here: while it is paused) make at most two
    /// refreshes, not one each, and the last report counts every session.
    @Test(.timeLimit(.minutes(3)))
    func changesSavedDuringARefreshAreCoalesced() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let watching = try RunningTool(["report", "--watch", "--store", store, "--as-of", ReportCommandTests.asOf], in: tool)
        defer { watching.kill() }
        try #require(watching.waitForError(within: .seconds(60)) { $0.contains("watching the store") },
                     "the watch did not start; stderr: \(watching.standardError)")
        // Standard output and standard error are read apart: the report may arrive just after the line above.
        #expect(watching.waitForOutput(within: .seconds(20)) { Self.sessionCounts(in: $0) == [1500] }, "\(watching.standardOutput)")

        // Eight imports, each its own change set, while the watcher is stopped: on resuming it finds them all.
        watching.send(SIGSTOP)
        var resumed = false
        defer { if !resumed { watching.send(SIGCONT) } }
        for batch in 0..<8 {
            let file = tool.path("batch-\(batch).csv")
            let rows = (0..<5).map { "2025-05-\(10 + batch)T0\($0):00:00Z,600" }
            try (["start,duration"] + rows).joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
            let imported = try await tool.run(["import", file, "--format", "csv", "--store", store])
            #expect(imported.status == 0, "\(imported.standardError)")
        }
        watching.send(SIGCONT)
        resumed = true

        let refreshed = watching.waitForOutput(within: .seconds(60)) { Self.sessionCounts(in: $0).last == 1540 }
        #expect(refreshed, "no refreshed report; stdout: \(watching.standardOutput)\nstderr: \(watching.standardError)")
        // A watcher that refreshed once per change set would go on printing the same count: give it the time to
        // show it (the first refresh already counts every session), until the output stays still for 2 s.
        for _ in 0..<30 {
            let printed = watching.standardOutput
            if !watching.waitForOutput(within: .seconds(2), until: { $0 != printed }) { break }
        }
        let (status, _) = watching.interruptAndWaitForExit(within: .seconds(20))
        #expect(status == 0, "\(watching.standardError)")
        let counts = Self.sessionCounts(in: watching.standardOutput)
        // The first report, then one refresh for the first change set and one for the other seven at most.
        #expect(counts.count <= 3, "\(counts.count) reports for 8 change sets: \(counts)")
        #expect(counts.first == 1500 && counts.last == 1540, "\(counts)")
    }

    /// `report --watch --practitioner alice` follows Alice's sessions only: another practitioner's import is seen and
    /// leaves her report standing (not rendered again); her own import renders it again.
    @Test(.timeLimit(.minutes(3)))
    func aPractitionersWatchIsRenderedAgainForTheirOwnImportOnly() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("practice.sqlite")
        func importSessions(_ rows: String, for practitioner: String, named name: String) async throws {
            let file = tool.path(name)
            try ("start,duration\n" + rows).write(toFile: file, atomically: true, encoding: .utf8)
            let imported = try await tool.run(["import", file, "--format", "csv", "--practitioner", practitioner, "--store", store])
            #expect(imported.status == 0, "\(imported.standardError)")
        }
        try await importSessions("2025-05-30T06:00:00Z,1200\n2025-05-31T06:00:00Z,900\n", for: "alice", named: "alice-1.csv")
        try await importSessions("2025-05-30T07:00:00Z,600\n", for: "bob", named: "bob-1.csv")
        // Statistics that read the digest only: an import's runs (which by_import reads) do not re-render it either.
        let config = tool.path("counts.yaml")
        try "version: 1\nstatistics:\n  - id: session_count\n".write(toFile: config, atomically: true, encoding: .utf8)

        let watching = try RunningTool(["report", "--watch", "--practitioner", "alice", "--config", config, "--store", store,
                                        "--as-of", "2030-01-01T00:00:00Z", "--verbose"], in: tool)
        defer { watching.kill() }
        try #require(watching.waitForError(within: .seconds(60)) { $0.contains("watching the store") },
                     "the watch did not start; stderr: \(watching.standardError)")
        #expect(watching.waitForOutput(within: .seconds(20)) { Self.sessionCounts(in: $0) == [2] }, "\(watching.standardOutput)")

        try await importSessions("2025-06-01T07:00:00Z,600\n2025-06-02T07:00:00Z,600\n", for: "bob", named: "bob-2.csv")
        let stood = watching.waitForError(within: .seconds(60)) { $0.contains("none of the practitioner's sessions changed: the report stands") }
        #expect(stood, "Bob's import was not seen; stderr: \(watching.standardError)")

        try await importSessions("2025-06-01T06:00:00Z,1500\n", for: "alice", named: "alice-2.csv")
        #expect(watching.waitForOutput(within: .seconds(60)) { Self.sessionCounts(in: $0).last == 3 }, "\(watching.standardOutput)")
        let (status, _) = watching.interruptAndWaitForExit(within: .seconds(20))
        #expect(status == 0, "\(watching.standardError)")
        // The first report and the one after Alice's import; none for Bob's.
        #expect(Self.sessionCounts(in: watching.standardOutput) == [2, 3], "\(watching.standardOutput)")
    }
}
