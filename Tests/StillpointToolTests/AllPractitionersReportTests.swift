import Foundation
import StillpointPostgresTestSupport
import Testing

/// `report --all-practitioners --format jsonl`: one JSON report a line, each with its practitioner, in id order,
/// on SQLite and PostgreSQL.
@Suite("report --all-practitioners", .serialized)
struct AllPractitionersReportTests {
    typealias StoreKind = PractitionersCommandTests.StoreKind

    private func makeStore(_ kind: StoreKind, in tool: ToolRunner) throws -> String {
        switch kind {
        case .sqlite: tool.path("practice.sqlite")
        case .postgres: try PostgresTestServer.shared().makeDatabase("all_practitioners")
        }
    }

    @Test(arguments: PractitionersCommandTests.stores)
    func everyPractitionerHasOneLineInIDOrder(_ kind: StoreKind) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try makeStore(kind, in: tool)
        let csv = tool.path("log.csv")
        try StoreFaultTests.writeCSV(rows: 12, to: csv)
        #expect(try await tool.run(["import", csv, "--format", "csv", "--store", store]).status == 0)
        #expect(try await tool.run(["practitioners", "rename", "me", "zoe", "--store", store]).status == 0)
        #expect(try await tool.run(["practitioners", "add", "alice", "--store", store]).status == 0)

        let output = tool.path("reports.jsonl")
        let result = try await tool.run(["report", "--all-practitioners", "--format", "jsonl", "--as-of", "2030-01-01T00:00:00Z",
                                   "--store", store, "--output", output])
        #expect(result.status == 0, "\(result.standardError)")
        // The default manifest's by_import reads the store: it is made per practitioner too, nothing left out.
        #expect(!result.standardError.contains("left out"), "\(result.standardError)")
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        let documents = try lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(documents.map { $0["practitioner"] as? String } == ["alice", "zoe"])
        let counts = documents.map { document in
            (document["statistics"] as? [[String: Any]])?.first { $0["id"] as? String == "session_count" }?["value"] as? Int
        }
        #expect(counts == [0, 12])
        // by_import counts each practitioner's own runs' sessions: Zoe's one import of 12, none of Alice's.
        let imported = documents.map { document -> Int? in
            let entry = (document["statistics"] as? [[String: Any]])?.first { $0["id"] as? String == "by_import" }
            guard entry?["status"] as? String == "ok", let runs = entry?["value"] as? [String: [String: Any]] else { return nil }
            return runs.values.reduce(0) { $0 + ($1["count"] as? Int ?? 0) }
        }
        #expect(imported == [0, 12], "\(lines)")
        #expect(lines.allSatisfy { $0.hasPrefix(#"{"practitioner":"#) })
    }

    @Test func theFormatAndTheFlagGoTogether() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        for arguments in [["report", "--all-practitioners"], ["report", "--format", "jsonl"], ["report", "--all-practitioners", "--format", "json"],
                          ["report", "--all-practitioners", "--format", "jsonl", "--watch"]] {
            let result = try await tool.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains("--all-practitioners"), "\(result.standardError)")
        }
    }
}
