import Foundation
import Testing

/// End to end: the built tool on the `Config/` manifests, against golden outputs.
@Suite("stillpoint report", .serialized)
struct ReportCommandTests {
    static let asOf = "2025-06-01T12:00:00Z"

    /// A reproducible store: the demo history ending the day before the report.
    static func makeStore(_ tool: ToolRunner) async throws -> String {
        let store = tool.path("practice.sqlite")
        let result = try await tool.run(["demo", "--sessions", "1500", "--years", "3", "--ending-at", "2025-05-31T20:00:00Z", "--store", store])
        #expect(result.status == 0, "\(result.standardError)")
        return store
    }

    @Test func theFirstRunPrintsARealReportFromTheDefaultStore() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let result = try await tool.run(["report"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("Sessions"))
        #expect(result.standardOutput.contains("2,400"))
        #expect(FileManager.default.fileExists(atPath: tool.path("home/practice.sqlite")))
        // The second run reuses the store.
        let again = try await tool.run(["report", "--format", "json"])
        #expect(again.status == 0 && again.standardOutput.contains("\"session_count\""))
    }

    @Test(arguments: ["default.yaml", "examples/yoga-only.yaml", "examples/rest-days.yaml", "examples/custom-statistics.yaml"])
    func manifestsMatchTheirGoldenJSON(manifest: String) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await Self.makeStore(tool)
        let result = try await tool.run(["report", "--config", ToolRunner.repositoryPath("Config/\(manifest)"), "--store", store,
                                   "--format", "json", "--as-of", Self.asOf])
        #expect(result.status == 0, "\(result.standardError)")
        let name = manifest.replacingOccurrences(of: "examples/", with: "").replacingOccurrences(of: ".yaml", with: ".json")
        try Golden.check(result.standardOutput, against: name)
    }

    @Test(arguments: ["text", "markdown", "csv"])
    func theDefaultManifestMatchesItsGoldenOutput(format: String) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await Self.makeStore(tool)
        let output = tool.path("report.out")
        let result = try await tool.run(["report", "--store", store, "--format", format, "--as-of", Self.asOf, "--output", output])
        #expect(result.status == 0, "\(result.standardError)")
        try Golden.check(try String(contentsOfFile: output, encoding: .utf8),
                         against: "default.\(format == "markdown" ? "md" : format == "text" ? "txt" : format)")
    }

    @Test func theTextReportOnAPipeIsTheWholeReportAlone() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await Self.makeStore(tool)
        let result = try await tool.run(["report", "--store", store, "--as-of", Self.asOf])
        #expect(result.status == 0, "\(result.standardError)")
        // Not a terminal: no escape codes; the live lines go to standard error, one per statistic.
        #expect(!result.standardOutput.contains("\u{1B}[") && !result.standardError.contains("\u{1B}["))
        #expect(result.standardOutput.hasPrefix("Practice report"))
        #expect(result.standardError.split(separator: "\n").filter { $0.hasPrefix("✓ ") }.count >= 16, "\(result.standardError)")
        try Golden.check(result.standardOutput, against: "default.txt")
    }

    @Test func htmlGoesToTheOutputFile() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await Self.makeStore(tool)
        let output = tool.path("report.html")
        let result = try await tool.run(["report", "--store", store, "--format", "html", "--output", output, "--as-of", Self.asOf])
        #expect(result.status == 0, "\(result.standardError)")
        let html = try String(contentsOfFile: output, encoding: .utf8)
        #expect(html.contains("<svg") && html.contains("</html>"))
        #expect(!html.contains("http://") && !html.contains("https://"))
    }
}

/// Golden outputs beside the tests; `STILLPOINT_UPDATE_GOLDEN=1` rewrites them.
enum Golden {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static func check(_ actual: String, against name: String) throws {
        let url = folder.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["STILLPOINT_UPDATE_GOLDEN"] == "1" || !FileManager.default.fileExists(atPath: url.path) {
            try actual.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(actual == expected, "\(name) differs from its golden output; rerun with STILLPOINT_UPDATE_GOLDEN=1 if the change is intended")
    }
}
