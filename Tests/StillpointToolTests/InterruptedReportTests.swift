import Foundation
import Testing

/// End to end: Ctrl-C during a running report.
@Suite("stillpoint report, interrupted", .serialized)
struct InterruptedReportTests {
    @Test(.timeLimit(.minutes(3)))
    func ctrlCCancelsTheRunningStatisticsAndExitsWith130() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("practice.sqlite")
        let demo = try await tool.run(["demo", "--sessions", "20000", "--years", "4", "--ending-at", "2025-05-31T20:00:00Z", "--store", store])
        #expect(demo.status == 0, "\(demo.standardError)")
        // Many instances of a statistic that scans every session: seconds of work, so that Ctrl-C lands while
        // most of them still wait or run.
        let manifest = tool.path("slow.yaml")
        let entries = (1...120).map { "  - id: sessions_by_weekday\n    as: weekdays_\($0)\n" }.joined()
        try "version: 1\ntime_zone: UTC\nstatistics:\n\(entries)".write(toFile: manifest, atomically: true, encoding: .utf8)

        let running = try RunningTool(["report", "--store", store, "--config", manifest, "--as-of", ReportCommandTests.asOf], in: tool)
        defer { running.kill() }
        // Not a terminal: one line per statistic on standard error as it completes, so the first line means
        // the report runs.
        try #require(running.waitForError(within: .seconds(60)) { $0.contains("✓ ") },
                     "no statistic completed; stderr: \(running.standardError)")
        let (status, took) = running.interruptAndWaitForExit(within: .seconds(20))
        #expect(status == 130, "stderr: \(running.standardError)")
        #expect(took < .seconds(10))
        #expect(running.standardError.contains("stopped by Ctrl-C"), "\(running.standardError)")
        // The report is still printed, the statistics that did not finish marked as cancelled.
        let output = running.standardOutput
        let report = try #require(output.range(of: "Practice report"), "no report after Ctrl-C: \(output)")
        #expect(output[report.lowerBound...].contains("cancelled"))

        // The store is intact: another report reads every session.
        #expect(try await ImportCommandTests().count(store, in: tool) == 20000)
    }
}
