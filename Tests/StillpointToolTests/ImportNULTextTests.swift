import Foundation
import StillpointPostgresTestSupport
import Testing

/// A NUL character (U+0000) in an export's text: SQLite would keep it, PostgreSQL's `text` cannot. Both stores do
/// the same: the row is skipped with its line and reason, and every good row is saved, in a run that completes.
@Suite("import: text with a NUL character", .serialized)
struct ImportNULTextTests {
    /// The stores to import into: a SQLite file, and a PostgreSQL database unless those tests are skipped.
    static let stores = ["sqlite"] + (PostgresTestServer.isWanted ? ["postgres"] : [])

    private func makeStore(_ kind: String, in tool: ToolRunner) throws -> String {
        kind == "postgres" ? try PostgresTestServer.shared().makeDatabase("nul") : tool.path("practice.sqlite")
    }

    @Test(arguments: stores)
    func aCSVNoteWithNULIsSkippedWithItsLineAndTheGoodRowsAreSaved(store kind: String) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try makeStore(kind, in: tool)
        let csv = tool.path("log.csv")
        var bytes = Data("start,duration,note\n2024-05-01T07:00:00Z,600,calm\n2024-05-02T07:00:00Z,900,a".utf8)
        bytes.append(0)
        bytes.append(Data("b\n2024-05-03T07:00:00Z,1200,steady\n".utf8))
        try bytes.write(to: URL(fileURLWithPath: csv))

        for attempt in 1...2 {
            let imported = try await tool.run(["import", csv, "--format", "csv", "--note-column", "note", "--store", store])
            #expect(imported.status == 0, "\(kind), attempt \(attempt): \(imported.standardError)")
            #expect(imported.standardError.contains("skipped line 3: the note holds a NUL character (U+0000)"),
                    "\(kind): \(imported.standardError)")
            #expect(imported.standardOutput.contains(attempt == 1 ? "2 new" : "0 new"), "\(kind): \(imported.standardOutput)")
            #expect(imported.standardOutput.contains("1 skipped"), "\(kind): \(imported.standardOutput)")
            #expect(!imported.standardError.contains("PostgresNULTextError"), "\(imported.standardError)")
        }
        let exported = try await tool.run(["export", "--store", store, "--columns", "start,note", "--sort", "start", "--output", "-"])
        #expect(exported.status == 0, "\(exported.standardError)")
        #expect(exported.lines == "start,note\n2024-05-01T07:00:00Z,calm\n2024-05-03T07:00:00Z,steady\n", "\(kind)")
    }

    @Test(arguments: stores)
    func anAppleHealthSourceWithNULIsSkippedWithItsLineAndTheGoodRowsAreSaved(store kind: String) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try makeStore(kind, in: tool)
        let file = tool.path("export.xml")
        var bytes = Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <HealthData locale="en_US">
             <Record type="HKCategoryTypeIdentifierMindfulSession" sourceName="Breathe" startDate="2024-03-09 07:30:00 +0000" endDate="2024-03-09 07:40:00 +0000"/>
             <Record type="HKCategoryTypeIdentifierMindfulSession" sourceName="Wat
            """.utf8)
        bytes.append(0)
        bytes.append(Data("""
            ch" startDate="2024-03-10 07:30:00 +0000" endDate="2024-03-10 07:40:00 +0000"/>
             <Record type="HKCategoryTypeIdentifierMindfulSession" sourceName="Breathe" startDate="2024-03-11 07:30:00 +0000" endDate="2024-03-11 07:50:00 +0000"/>
            </HealthData>

            """.utf8))
        try bytes.write(to: URL(fileURLWithPath: file))
        let imported = try await tool.run(["import", file, "--format", "apple-health", "--store", store])
        #expect(imported.status == 0, "\(kind): \(imported.standardError)")
        #expect(imported.standardError.contains("skipped line 4: the source holds a NUL character (U+0000)"),
                "\(kind): \(imported.standardError)")
        #expect(imported.standardOutput.contains("2 new"), "\(kind): \(imported.standardOutput)")
        let exported = try await tool.run(["export", "--store", store, "--columns", "start,source", "--sort", "start", "--output", "-"])
        #expect(exported.lines == "start,source\n2024-03-09T07:30:00Z,Breathe\n2024-03-11T07:30:00Z,Breathe\n", "\(kind)")
    }
}
