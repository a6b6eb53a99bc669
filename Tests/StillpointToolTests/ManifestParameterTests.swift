import Foundation
import Testing

/// End to end: manifest values that make no sense are refused by `validate` and `report` alike, each with the
/// file, line and column and what to write instead; a manifest that cannot be read is a missing input (66), one
/// that says something wrong is bad data (65), and each problem prints as one clean line.
@Suite("stillpoint manifest parameters", .serialized)
struct ManifestParameterTests {
    func manifest(_ yaml: String, in tool: ToolRunner) throws -> String {
        let path = tool.path("manifest-\(UUID().uuidString).yaml")
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `day_starts_at: nan`, `inf` and `1e300` killed both commands (`DayBoundary`); 48h was accepted.
    @Test(.timeLimit(.minutes(3)), arguments: ["nan", "inf", "1e300", "48h", "-24h", "-inf", "1e400"])
    func aDayBoundaryOutsideADayIsRefused(value: String) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let path = try manifest("version: 1\nday_starts_at: \(value)\nstatistics: [session_count, current_streak]\n", in: tool)

        let validated = try await tool.run(["validate", path])
        #expect(validated.status == 65, "\(validated.standardError)")
        #expect(validated.standardError.contains("\(path):2:16: error: day_starts_at"), "\(validated.standardError)")

        let reported = try await tool.run(["report", "--config", path, "--store", store, "--as-of", ReportCommandTests.asOf])
        #expect(reported.status == 65, "\(reported.standardError)")
        let lines = reported.standardError.split(separator: "\n")
        #expect(lines.count == 1, "\(reported.standardError)")
        #expect(lines.first?.hasPrefix("Error: \(path):2:16: day_starts_at") == true, "\(reported.standardError)")
        #expect(reported.standardError.contains("'\(value)'"))
        #expect(reported.standardError.contains("write e.g. 4h"))
        #expect(reported.standardOutput.isEmpty)
    }

    @Test func aDayBoundaryWithinADayStillWorks() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        for value in ["-2h", "4h", "23h59m"] {
            let path = try manifest("version: 1\nday_starts_at: \(value)\nstatistics: [session_count, current_streak]\n", in: tool)
            #expect(try await tool.run(["validate", path]).status == 0)
            let reported = try await tool.run(["report", "--config", path, "--store", store, "--as-of", ReportCommandTests.asOf, "--format", "json"])
            #expect(reported.status == 0, "\(value): \(reported.standardError)")
        }
    }

    /// Every numeric parameter of the built-in statistics, with a value that makes no sense.
    @Test(.timeLimit(.minutes(3)))
    func parametersThatMakeNoSenseAreRefusedAtTheirLine() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let cases: [(entry: String, says: String)] = [
            ("{id: session_count, parameters: {minimum_duration: -5m}}", "minimum_duration"),
            ("{id: total_time, parameters: {minimum_duration: nan}}", "minimum_duration"),
            ("{id: average_session_time, parameters: {maximum_duration: inf}}", "maximum_duration"),
            ("{id: median_session_time, parameters: {maximum_duration: 1e300}}", "maximum_duration"),
            ("{id: longest_session, parameters: {maximum_duration: -1h}}", "maximum_duration"),
            ("{id: current_streak, parameters: {day_starts_at: 48h}}", "day_starts_at"),
            ("{id: best_streaks, parameters: {count: 0}}", "count"),
            ("{id: best_streaks, as: best_2, parameters: {count: 99999999999999999999}}", "count"),
            ("{id: longest_streak, parameters: {excluded_weekdays: [monday, tuesday, wednesday, thursday, friday, saturday, sunday]}}",
             "excluded_weekdays"),
            ("{id: active_days, parameters: {as_of: 2024-02-30}}", "as_of"),
            ("{id: sessions_by_hour, parameters: {time_zone: GMT+99}}", "time_zone"),
        ]
        let yaml = "version: 1\nstatistics:\n" + cases.map { "  - \($0.entry)\n" }.joined()
        let path = try manifest(yaml, in: tool)

        let validated = try await tool.run(["validate", path])
        #expect(validated.status == 65)
        for (offset, item) in cases.enumerated() {
            #expect(validated.standardError.contains("\(path):\(offset + 3):"), "line \(offset + 3): \(validated.standardError)")
            #expect(validated.standardError.contains("parameter '\(item.says)'"), "\(item.says): \(validated.standardError)")
        }
        #expect(validated.standardError.contains("\(cases.count) problems in"))

        let reported = try await tool.run(["report", "--config", path, "--store", store, "--as-of", ReportCommandTests.asOf])
        #expect(reported.status == 65, "\(reported.standardError)")
        #expect(reported.standardError.hasPrefix("Error: \(path):3:"), "\(reported.standardError)")
        #expect(reported.standardError.contains("and \(cases.count - 1) more problems; `stillpoint validate \(path)` lists them all"))
        #expect(!reported.standardError.contains("error:"), "\(reported.standardError)")
    }

    @Test func aManifestThatCannotBeReadIsAMissingInput() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let missing = tool.path("no-such-manifest.yaml")
        let result = try await tool.run(["report", "--config", missing, "--store", store])
        #expect(result.status == 66, "\(result.standardError)")
        #expect(result.standardError == "Error: cannot read the manifest \(missing): there is no such file; "
                + "pass the path of a YAML manifest such as Config/default.yaml\n")

        let folder = tool.path("a-folder.yaml")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let fromFolder = try await tool.run(["report", "--config", folder, "--store", store])
        #expect(fromFolder.status == 66, "\(fromFolder.standardError)")
        #expect(fromFolder.standardError.contains("it is a folder"))
    }

    @Test func aMalformedManifestIsBadDataOnOneCleanLine() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let path = try manifest("version: 1\nstatistics:\n  - id: session_count\n   - id: total_time\n", in: tool)
        let result = try await tool.run(["report", "--config", path, "--store", store])
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("Error: \(path):4:"), "\(result.standardError)")
        #expect(!result.standardError.contains("error:"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")

        let notUTF8 = tool.path("latin1.yaml")
        try Data([0x76, 0x65, 0x72, 0xE9, 0x0A]).write(to: URL(fileURLWithPath: notUTF8))
        let latin = try await tool.run(["report", "--config", notUTF8, "--store", store])
        #expect(latin.status == 65, "\(latin.standardError)")
        #expect(latin.standardError.contains("is not UTF-8 text"))
    }

    /// A predicate's error has lines of its own (its caret); the report prints the first, with the place.
    @Test func aBadPredicateIsOneLine() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let path = try manifest("""
            version: 1
            custom_statistics:
              c: {function: sum, attribute: duration, where: "duration > nan"}
            statistics: [c]

            """, in: tool)
        let result = try await tool.run(["report", "--config", path, "--store", store])
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("Error: \(path):3:62: invalid where predicate: Session has no attribute 'nan'"),
                "\(result.standardError)")
    }
}
