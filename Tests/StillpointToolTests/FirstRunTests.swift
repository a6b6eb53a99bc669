import Foundation
import Testing

/// End to end: the default store, made from a demo history on first use, when several first runs race and when
/// a first run was killed.
@Suite("First runs", .serialized)
struct FirstRunTests {
    @Test func concurrentFirstRunsAllSucceedWithTheSameReport() throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let runs = try (0..<4).map { _ in
            try RunningTool(["report", "--format", "json", "--as-of", ReportCommandTests.asOf], in: tool)
        }
        let statuses = runs.map { $0.waitForExit(within: .seconds(60)) }
        for (run, status) in zip(runs, statuses) {
            #expect(status == 0, "\(run.standardError)")
        }
        let reports = Set(runs.map(\.standardOutput))
        #expect(reports.count == 1)
        #expect(reports.first?.contains("\"session_count\"") == true)
        let files = try FileManager.default.contentsOfDirectory(atPath: tool.path("home"))
        #expect(files.filter { $0.hasPrefix("practice.partial-") }.isEmpty, "\(files)")
    }

    @Test func theNextRunRemovesWhatAKilledFirstRunLeft() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        // A first run killed part-way: its partial store (and its WAL files) stay behind.
        let home = tool.path("home")
        try FileManager.default.createDirectory(atPath: home, withIntermediateDirectories: true)
        let stale = ["practice.partial-1234567-0badcafe.sqlite", "practice.partial-1234567-0badcafe.sqlite-wal",
                     "practice.partial-1234567-0badcafe.sqlite-shm", "practice.partial-5C1E8F2A-77B3-4A1D-9F70-2B7E1C0D4A99.sqlite"]
        for name in stale {
            #expect(FileManager.default.createFile(atPath: "\(home)/\(name)", contents: Data("half made".utf8)))
        }
        let killed = try RunningTool(["report"], in: tool)
        usleep(UInt32.random(in: 20_000...150_000))
        killed.kill()

        let result = try await tool.run(["report", "--format", "json", "--as-of", ReportCommandTests.asOf])
        #expect(result.status == 0, "\(result.standardError)")
        let files = try FileManager.default.contentsOfDirectory(atPath: home)
        #expect(files.filter { $0.hasPrefix("practice.partial-") }.isEmpty, "\(files)")
        #expect(files.contains("practice.sqlite"))
        // Once the store exists, a later run cleans up too.
        #expect(FileManager.default.createFile(atPath: "\(home)/\(stale[0])", contents: Data("half made".utf8)))
        #expect(try await tool.run(["check"]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: home).filter { $0.hasPrefix("practice.partial-") }.isEmpty)
    }
}
