import Foundation
import Testing

/// End to end: an instant that does not exist (February 30, month 13, hour 25) is refused, not rolled over
/// (`--as-of 2024-02-30` was read as 1 March): a usage error (64) on the command line, bad data (65) with its
/// line in a manifest.
@Suite("stillpoint instants", .serialized)
struct InstantArgumentTests {
    static let impossible = ["2024-02-30", "2023-02-29", "2024-13-01", "2024-03-15T25:00:00Z", "2024-03-15T12:60:00Z",
                             "2024-03-15T12:00:00+15:00", "2024-04-31T08:00:00Z"]

    @Test func reportRefusesAnAsOfThatDoesNotExist() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        for value in Self.impossible {
            let result = try await tool.run(["report", "--as-of", value])
            #expect(result.status == 64, "\(value): \(result.standardError)")
            #expect(result.standardError.contains("'\(value)'"), "\(result.standardError)")
            #expect(result.standardError.contains("2024-03-15T12:00:00Z"), "\(result.standardError)")
            #expect(result.standardOutput.isEmpty)
        }
        // Nothing was run, so no default store was made.
        #expect(!FileManager.default.fileExists(atPath: tool.path("home/practice.sqlite")))
    }

    @Test func demoRefusesAnEndingAtThatDoesNotExist() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("demo.sqlite")
        for value in Self.impossible {
            let result = try await tool.run(["demo", "--ending-at", value, "--store", store])
            #expect(result.status == 64, "\(value): \(result.standardError)")
            #expect(result.standardError.contains("'\(value)'"), "\(result.standardError)")
        }
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    @Test func validInstantsStillWork() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        for value in ["2024-02-29", "2025-06-01T12:00:00Z", "2025-06-01T14:00:00+02:00", "2025-06-01T12:00:00.5Z"] {
            let result = try await tool.run(["report", "--store", store, "--as-of", value, "--format", "json"])
            #expect(result.status == 0, "\(value): \(result.standardError)")
        }
        let result = try await tool.run(["report", "--store", store, "--as-of", "2024-02-29", "--format", "json"])
        #expect(result.standardOutput.contains("\"as_of\": \"2024-02-29T00:00:00Z\""), "\(result.standardOutput.prefix(400))")
    }

    @Test(arguments: [("as_of: 2024-02-30", "as_of"), ("filters: {from: 2024-02-30}", "from"),
                      ("filters: {until: \"2024-03-15T25:00:00Z\"}", "until")])
    func aManifestInstantThatDoesNotExistIsRefusedAtItsLine(line: String, key: String) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let path = tool.path("instant.yaml")
        try "version: 1\n\(line)\nstatistics: [session_count]\n".write(toFile: path, atomically: true, encoding: .utf8)
        let validated = try await tool.run(["validate", path])
        #expect(validated.status == 65)
        #expect(validated.standardError.contains("\(path):2:"), "\(validated.standardError)")
        let reported = try await tool.run(["report", "--config", path, "--store", store])
        #expect(reported.status == 65, "\(reported.standardError)")
        #expect(reported.standardError.hasPrefix("Error: \(path):2:"), "\(reported.standardError)")
        #expect(reported.standardError.contains("\(key) expects"), "\(reported.standardError)")
    }
}
