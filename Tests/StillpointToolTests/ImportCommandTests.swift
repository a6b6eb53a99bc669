import Foundation
import Testing

/// End to end: importing the formats people have, bad rows, wrong files and re-imports.
@Suite("stillpoint import", .serialized)
struct ImportCommandTests {
    static func fixture(_ name: String) -> String { ToolRunner.repositoryPath("Tests/PracticeLogTests/Fixtures/\(name)") }

    func count(_ store: String, in tool: ToolRunner) async throws -> Int {
        let result = try await tool.run(["report", "--store", store, "--format", "json", "--as-of", "2030-01-01T00:00:00Z"])
        guard let range = result.standardOutput.range(of: #""id": "session_count"[^}]*"value": (\d+)"#, options: .regularExpression) else {
            Issue.record("no session_count in \(result.standardOutput) \(result.standardError)")
            return -1
        }
        let match = result.standardOutput[range]
        return Int(match.split(separator: " ").last ?? "") ?? -1
    }

    @Test func insightTimerImportsOnceAndReportsBadRows() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("practice.sqlite")
        let first = try await tool.run(["import", Self.fixture("insight-timer.csv"), "--format", "insight-timer", "--store", store])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("new"))
        #expect(first.standardError.contains("line 5"), "a bad duration is reported with its line: \(first.standardError)")
        let imported = try await count(store, in: tool)
        #expect(imported > 0)
        let again = try await tool.run(["import", Self.fixture("insight-timer.csv"), "--format", "insight-timer", "--store", store])
        #expect(again.status == 0)
        #expect(again.standardOutput.contains(" 0 new"))
        #expect(try await count(store, in: tool) == imported)
    }

    @Test func aFileInTheWrongFormatChangesNothing() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let before = FileManager.default.contents(atPath: store)
        let result = try await tool.run(["import", Self.fixture("insight-timer-wrong-header.csv"), "--format", "insight-timer", "--store", store])
        #expect(result.status != 0)
        #expect(result.standardError.contains("insight-timer-wrong-header.csv"))
        #expect(FileManager.default.contents(atPath: store) == before)
        let notXML = try await tool.run(["import", Self.fixture("apple-health-not-xml.txt"), "--format", "apple-health", "--store", store])
        #expect(notXML.status != 0)
        #expect(FileManager.default.contents(atPath: store) == before)
    }

    @Test func appleHealthAndGenericCSV() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("practice.sqlite")
        let health = try await tool.run(["import", Self.fixture("apple-health-export.xml"), "--format", "apple-health", "--store", store])
        #expect(health.status == 0, "\(health.standardError)")
        let csv = try await tool.run(["import", Self.fixture("generic-sessions.csv"), "--format", "csv", "--store", store,
                                "--start-column", "Date", "--duration-column", "Minutes", "--duration-unit", "minutes",
                                "--kind-column", "Type", "--note-column", "Notes"])
        #expect(csv.status == 0, "\(csv.standardError)")
        #expect(try await count(store, in: tool) > 0)
    }
}
