import Foundation
import Testing

/// End to end: `stillpoint sessions` lists the latest sessions, and with `--live` follows an import that another
/// process runs (seed 004's consumer and producer), until Ctrl-C or SIGTERM.
@Suite("stillpoint sessions", .serialized)
struct SessionsCommandTests {
    /// The session lines of each `== snapshot` block printed so far, in order.
    static func snapshots(in output: String) -> [[String]] {
        var blocks: [[String]] = []
        for line in output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("== snapshot ") {
                blocks.append([])
            } else if !line.isEmpty, !blocks.isEmpty {
                blocks[blocks.count - 1].append(line)
            }
        }
        return blocks
    }

    static func writeSessions(_ lines: [String], in tool: ToolRunner) throws -> String {
        let file = tool.path("new-\(UUID().uuidString.prefix(8)).csv")
        try (["start,duration"] + lines).joined(separator: "\n").appending("\n").write(toFile: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test(.timeLimit(.minutes(3)))
    func theLatestSessionsArePrintedOnceLatestFirst() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let result = try await tool.run(["sessions", "--store", store, "--limit", "4", "--where", "duration >= 600"])
        #expect(result.status == 0, "\(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n").dropFirst().map(String.init)
        #expect(lines.count == 4, "\(result.standardOutput)")
        let starts = lines.map { $0.dropFirst(2).prefix(16) }
        #expect(starts == starts.sorted(by: >), "latest first: \(result.standardOutput)")
        #expect(starts.allSatisfy { $0 <= "2025-05-31 20:00" })

        let wrong = try await tool.run(["sessions", "--store", store, "--where", "lenght > 3"])
        #expect(wrong.status == 64, "\(wrong.standardError)")
        #expect(wrong.standardError.contains("--where"), "\(wrong.standardError)")
    }

    @Test(.timeLimit(.minutes(3)))
    func liveSessionsFollowAnImportInAnotherProcessUntilCtrlC() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let following = try RunningTool(["sessions", "--live", "--limit", "5", "--store", store], in: tool)
        defer { following.kill() }
        try #require(following.waitForError(within: .seconds(60)) { $0.contains("following the store") },
                     "the live list did not start; stderr: \(following.standardError)")
        #expect(following.waitForOutput(within: .seconds(20)) { Self.snapshots(in: $0).first?.count == 5 }, "\(following.standardOutput)")
        let first = try #require(Self.snapshots(in: following.standardOutput).first)

        let file = try Self.writeSessions(["2025-06-01T06:00:00Z,1200", "2025-06-01T18:30:00Z,900", "2025-06-02T07:00:00Z,600"], in: tool)
        let imported = try await tool.run(["import", file, "--format", "csv", "--store", store])
        #expect(imported.status == 0, "\(imported.standardError)")

        let caughtUp = following.waitForOutput(within: .seconds(60)) { output in
            Self.snapshots(in: output).last?.prefix(3).map { $0.dropFirst(2).prefix(16) } == ["2025-06-02 07:00", "2025-06-01 18:30", "2025-06-01 06:00"]
        }
        #expect(caughtUp, "the imported sessions did not come; stdout: \(following.standardOutput)\nstderr: \(following.standardError)")
        let last = try #require(Self.snapshots(in: following.standardOutput).last)
        #expect(last.count == 5)
        #expect(last.prefix(3).allSatisfy { $0.hasPrefix("+ ") || $0.hasPrefix("  ") })
        #expect(Array(last.suffix(2)) == first.prefix(2).map { $0 }, "the two latest before the import follow them")
        // No snapshot shows a state older than the one before it: the latest start never goes back.
        let latestStarts = Self.snapshots(in: following.standardOutput).compactMap { $0.first?.dropFirst(2).prefix(16) }
        #expect(latestStarts == latestStarts.sorted(), "\(following.standardOutput)")

        let (status, took) = following.interruptAndWaitForExit(within: .seconds(20))
        #expect(status == 0, "stderr: \(following.standardError)")
        #expect(took < .seconds(10))
        #expect(following.standardError.contains("stopped following the store"), "\(following.standardError)")
    }

    @Test(.timeLimit(.minutes(3)))
    func sigtermEndsTheLiveListCleanlyAndSnapshotsStopsIt() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let following = try RunningTool(["sessions", "--live", "--limit", "3", "--store", store], in: tool)
        defer { following.kill() }
        try #require(following.waitForOutput(within: .seconds(60)) { Self.snapshots(in: $0).first?.count == 3 })
        following.send(SIGTERM)
        #expect(following.waitForExit(within: .seconds(20)) == 0, "stderr: \(following.standardError)")
        #expect(following.standardError.contains("stopped following the store"), "\(following.standardError)")

        let once = try RunningTool(["sessions", "--live", "--snapshots", "2", "--limit", "3", "--store", store], in: tool)
        defer { once.kill() }
        try #require(once.waitForOutput(within: .seconds(60)) { Self.snapshots(in: $0).count == 1 })
        let file = try Self.writeSessions(["2025-06-03T06:00:00Z,1200"], in: tool)
        #expect(try await tool.run(["import", file, "--format", "csv", "--store", store]).status == 0)
        #expect(once.waitForExit(within: .seconds(60)) == 0, "stderr: \(once.standardError)")
        let shown = Self.snapshots(in: once.standardOutput)
        #expect(shown.count == 2 && shown[1].first?.hasPrefix("+ 2025-06-03 06:00Z") == true, "\(once.standardOutput)")
    }

    /// On a terminal a new state of the list replaces the one before it: the cursor goes back up over it and
    /// the rest of the screen is cleared, instead of a new list printed below.
    @Test(.timeLimit(.minutes(3)), .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs script(1) for a terminal"))
    func onATerminalTheListIsRedrawnInPlace() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let following = try RunningTool(["sessions", "--live", "--limit", "4", "--store", store], in: tool, terminal: true)
        defer { following.kill() }
        try #require(following.waitForOutput(within: .seconds(60)) { $0.contains("snapshot 0") },
                     "the live list did not start: \(following.standardOutput)")
        let file = try Self.writeSessions(["2025-06-01T06:00:00Z,1200"], in: tool)
        #expect(try await tool.run(["import", file, "--format", "csv", "--store", store]).status == 0)
        // Four sessions and the header: five lines up, then clear to the end of the screen.
        let redrawn = following.waitForOutput(within: .seconds(60)) { $0.contains("\u{1B}[5A\r\u{1B}[J") && $0.contains("snapshot 1") }
        #expect(redrawn, "no list redrawn in place: \(following.standardOutput.suffix(600))")
        #expect(!following.standardOutput.contains("== snapshot"))
    }
}
