import Foundation
import Testing

/// Demo and real sessions never mix, and a report of demo data says so in every format.
@Suite("demo data", .serialized)
struct DemoDataTests {
    @Test func aReportOfDemoDataSaysSoInEveryFormat() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        for format in ["text", "json", "markdown", "csv", "html"] {
            let result = try await tool.run(["report", "--format", format])
            #expect(result.status == 0, "\(format): \(result.standardError)")
            #expect(result.standardOutput.contains("demo data: a generated history of 2,400 sessions, not yours"), "\(format)")
        }
    }

    @Test func theFirstRealImportIntoTheDefaultStoreReplacesTheDemo() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        #expect(try await tool.run(["report"]).status == 0)
        let file = tool.path("mine.csv")
        try "start,duration\n2024-01-01T07:00:00Z,600\n2024-01-02T07:00:00Z,900\n".write(toFile: file, atomically: true, encoding: .utf8)
        let imported = try await tool.run(["import", file, "--format", "csv"])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardError.contains("removed the 2,400 demo sessions from the default store"))
        let report = try await tool.run(["report", "--format", "json"])
        #expect(report.standardOutput.contains("\"value\": 2,"), "\(report.standardOutput.prefix(400))")
        #expect(!report.standardOutput.contains("demo data"))
        // A second import removes nothing more and says nothing about it.
        let again = try await tool.run(["import", file, "--format", "csv"])
        #expect(!again.standardError.contains("demo sessions"))
    }
}
