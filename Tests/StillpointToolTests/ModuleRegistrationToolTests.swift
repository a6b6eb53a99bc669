import Foundation
import Testing

/// `modules:` end to end: the built-in tool lists, validates and refuses registrations.
@Suite("stillpoint modules")
struct ModuleRegistrationToolTests {
    func manifest(_ yaml: String, in tool: ToolRunner) throws -> String {
        let path = tool.path("modules-\(UUID().uuidString).yaml")
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func statisticsAreListedByModuleWithTheirOrigin() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let result = try await tool.run(["statistics"])
        #expect(result.status == 0)
        let headers = result.standardOutput.split(separator: "\n").filter { $0.contains("(built in, ") }
        #expect(headers.count == 6, "\(result.standardOutput)")
        #expect(headers.first == "SessionTimeStatistics (built in, 3 statistics)")
        let one = try await tool.run(["statistics", "current_streak"])
        #expect(one.standardOutput.hasPrefix("StreakStatistics (built in, 1 statistic)\n\ncurrent_streak — "))
    }

    @Test func validateShowsTheRegisteredModules() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let path = try manifest("version: 1\nmodules: [StreakStatistics, TotalStatistics]\nstatistics: [current_streak, total_time, session_count]\n", in: tool)
        let result = try await tool.run(["validate", path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == """
            \(path) is a valid manifest
            registered modules (2 of 6):
              StreakStatistics (built in): current_streak
              TotalStatistics (built in): total_time, session_count

            """)
    }

    @Test func anUnknownModuleIsRefusedWhereItIsWritten() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let path = try manifest("version: 1\nmodules:\n  - StreakStatistic\nstatistics: [current_streak]\n", in: tool)
        let validated = try await tool.run(["validate", path])
        #expect(validated.status == 65)
        #expect(validated.standardError.contains("\(path):3:5: error: there is no statistic module 'StreakStatistic'; did you mean 'StreakStatistics'?"),
                "\(validated.standardError)")
        let report = try await tool.run(["report", "--config", path])
        #expect(report.status == 65)
        #expect(report.standardError.hasPrefix("Error: \(path):3:5: there is no statistic module 'StreakStatistic'"), "\(report.standardError)")
    }

    @Test func anEntryOutsideTheRegisteredModulesIsRefused() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let path = try manifest("version: 1\nmodules: [StreakStatistics]\nstatistics: [current_streak, total_time]\n", in: tool)
        let report = try await tool.run(["report", "--config", path])
        #expect(report.status == 65)
        #expect(report.standardError.contains("\(path):3:30: the statistic 'total_time' is in the module 'TotalStatistics'"),
                "\(report.standardError)")
    }
}
