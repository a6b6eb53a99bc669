import Foundation
import Testing

/// End to end: where `stillpoint report` writes, in which formats, and what reaches standard output.
@Suite("report outputs", .serialized)
struct ReportOutputTests {
    static let asOf = ReportCommandTests.asOf

    /// A manifest in a folder of its own under the runner's folder, naming `store` relative to itself.
    func manifest(_ output: String, store: String, in tool: ToolRunner, folder: String = "config") throws -> String {
        let directory = tool.path(folder)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: directory + "/reports", withIntermediateDirectories: true)
        let path = directory + "/report.yaml"
        try """
        version: 1
        store: \(store)
        statistics: [session_count, total_time, best_streaks, totals_by_period]
        \(output)
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func theManifestsPathGetsOneFilePerFormatBesideTheManifest() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let config = try manifest("output: {formats: [html, json], path: reports/practice}", store: store, in: tool)
        let result = try await tool.run(["report", "--config", config, "--as-of", Self.asOf])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.isEmpty, "the reports went to their files: \(result.standardOutput)")
        let html = try String(contentsOfFile: tool.path("config/reports/practice.html"), encoding: .utf8)
        let json = try String(contentsOfFile: tool.path("config/reports/practice.json"), encoding: .utf8)
        #expect(html.hasPrefix("<!doctype html>") && html.contains("aria-label=\"Monthly totals\""))
        #expect(json.contains("\"session_count\""))
        #expect(result.standardError.contains("wrote the html report to") && result.standardError.contains("wrote the json report to"))
        // Not relative to the working directory.
        #expect(!FileManager.default.fileExists(atPath: tool.path("reports/practice.json")))
    }

    @Test func theCommandLineOverridesTheManifest() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let config = try manifest("output: {formats: [html, json], path: reports/practice}", store: store, in: tool)
        // --format alone: that format, to the manifest's path.
        let markdown = try await tool.run(["report", "--config", config, "--as-of", Self.asOf, "--format", "markdown"])
        #expect(markdown.status == 0, "\(markdown.standardError)")
        #expect(FileManager.default.fileExists(atPath: tool.path("config/reports/practice.md")))
        #expect(!FileManager.default.fileExists(atPath: tool.path("config/reports/practice.html")))
        // --output alone: the manifest's formats, one file each from the given base.
        let both = try await tool.run(["report", "--config", config, "--as-of", Self.asOf, "--output", tool.path("mine")])
        #expect(both.status == 0, "\(both.standardError)")
        #expect(FileManager.default.fileExists(atPath: tool.path("mine.html")) && FileManager.default.fileExists(atPath: tool.path("mine.json")))
        // Both, and - for standard output.
        let json = try await tool.run(["report", "--config", config, "--as-of", Self.asOf, "--format", "json", "--output", "-"])
        #expect(json.status == 0 && json.standardOutput.hasPrefix("{"), "\(json.standardError)")
    }

    @Test func theManifestAcceptsEveryFormatTheCommandLineDoes() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let config = try manifest("output: {formats: [csv], path: reports/practice}", store: store, in: tool)
        let validate = try await tool.run(["validate", config])
        #expect(validate.status == 0, "\(validate.standardError)")
        let result = try await tool.run(["report", "--config", config, "--as-of", Self.asOf])
        #expect(result.status == 0, "\(result.standardError)")
        let csv = try String(contentsOfFile: tool.path("config/reports/practice.csv"), encoding: .utf8)
        #expect(csv.contains("session_count"))
    }

    @Test func aManifestPathOntoTheStoreIsRefusedBeforeAnyWork() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        // A store named like a report: the json format's extension, added to the path, names the store.
        let store = tool.path("practice.json")
        let demo = try await tool.run(["demo", "--sessions", "50", "--store", store])
        #expect(demo.status == 0, "\(demo.standardError)")
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let config = try manifest("output: {formats: [json], path: \(tool.path("practice"))}", store: store, in: tool)
        let result = try await tool.run(["report", "--config", config, "--as-of", Self.asOf])
        #expect(result.status != 0)
        #expect(result.standardError.contains("output.path"), "\(result.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        // And a folder that does not exist.
        let missing = try manifest("output: {formats: [json], path: nowhere/practice}", store: store, in: tool, folder: "other")
        let refused = try await tool.run(["report", "--config", missing, "--as-of", Self.asOf])
        #expect(refused.status == 73, "\(refused.standardError)")
        #expect(refused.standardError.contains("does not exist"))
    }

    /// Standard output not a terminal: the text report alone, without the live lines before it.
    @Test func aPipedTextReportIsTheReportAlone() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let piped = try await tool.run(["report", "--store", store, "--as-of", Self.asOf])
        #expect(piped.status == 0, "\(piped.standardError)")
        let output = tool.path("report.txt")
        _ = try await tool.run(["report", "--store", store, "--as-of", Self.asOf, "--output", output])
        #expect(piped.standardOutput == (try String(contentsOfFile: output, encoding: .utf8)))
        #expect(piped.standardOutput.hasPrefix("Practice report"))
    }

    /// The same broken manifest: `report --config` and `validate` list the same problems.
    @Test func reportListsTheProblemsValidateLists() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let path = tool.path("broken.yaml")
        try """
        version: 1
        time_zone: Europe/Berlinn
        day_starts_at: 30h
        statistics:
          - id: session_cont
          - id: current_streak
            parameters: {minimum_duratio: 5m}
          - id: best_streaks
            parameters: {count: 0}
        output: {formats: [pdf]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let validate = try await tool.run(["validate", path])
        let report = try await tool.run(["report", "--config", path])
        let count = try #require(validate.standardError.split(separator: "\n").last.flatMap { Int($0.split(separator: " ")[0]) })
        #expect(count >= 5, "\(validate.standardError)")
        #expect(report.status == 65)
        #expect(report.standardError.contains("and \(count - 1) more problems"), "\(report.standardError)")
    }

    /// A key without its colon: libyaml notices at the next line, the message names the line of the mistake,
    /// in `validate` and in `report` alike.
    @Test func aYAMLSyntaxErrorNamesTheLineOfTheMistake() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let path = tool.path("colon.yaml")
        try "version: 1\nstatistics:\n  - session_count\nstore practice.sqlite\ntime_zone: UTC\n"
            .write(toFile: path, atomically: true, encoding: .utf8)
        for arguments in [["validate", path], ["report", "--config", path]] {
            let result = try await tool.run(arguments)
            #expect(result.status == 65)
            #expect(result.standardError.contains("colon.yaml:4:1:"), "\(arguments[0]): \(result.standardError)")
        }
    }

    /// Whatever the machine calls UTC, every format says UTC.
    @Test(arguments: ["UTC", "Etc/UTC", "GMT"])
    func utcIsSpelledUTCEverywhere(zone: String) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        for format in ["text", "json", "markdown", "html"] {
            let output = tool.path("report.\(format)")
            let result = try await tool.run(["report", "--store", store, "--format", format, "--output", output, "--as-of", Self.asOf],
                                      environment: ["TZ": zone])
            #expect(result.status == 0, "\(result.standardError)")
            let text = try String(contentsOfFile: output, encoding: .utf8)
            #expect(text.contains("UTC") && !text.contains("GMT") && !text.contains("Etc/UTC"), "\(format) with TZ=\(zone)")
        }
    }

    /// best_streaks is in date order: the text report labels runs by their dates and marks the longest,
    /// so no "1." stands before a run that is not the best.
    @Test func bestStreaksAreNotNumbered() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let result = try await tool.run(["report", "--store", store, "--as-of", Self.asOf])
        let lines = result.standardOutput.split(separator: "\n")
        let start = try #require(lines.firstIndex { $0.hasPrefix("Best streaks") })
        let runs = lines[(start + 1)...].prefix { $0.hasPrefix("  ") }
        #expect(runs.count == 3)
        #expect(!runs.contains { $0.contains("1.") })
        #expect(runs.filter { $0.hasSuffix("· longest") }.count == 1, "\(runs)")
    }

    /// The demo's forgotten timer runs for hours, not days.
    @Test func theDemosLongestSessionIsAFewHours() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let result = try await tool.run(["report", "--format", "json"])
        #expect(result.status == 0, "\(result.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let statistics = try #require(json["statistics"] as? [[String: Any]])
        let longest = try #require(statistics.first { $0["id"] as? String == "longest_session" }?["value"] as? Double)
        #expect(longest >= 3_600 && longest <= 8 * 3_600, "longest session \(longest) s")
    }
}
