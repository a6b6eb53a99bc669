import Foundation
import Testing

/// `--practitioner ID` scopes `import`, `report`, `export`, `sessions`, `imports` and `demo` to one practitioner;
/// a store of several practitioners refuses a command without it (64), naming how many there are and a few ids.
@Suite("--practitioner")
struct PractitionerOptionTests {
    /// A store with the demo histories of alice (30 sessions) and bob (20).
    private func makeStore(_ tool: ToolRunner) async throws -> String {
        let store = tool.path("many.sqlite")
        for (id, sessions) in [("alice", 30), ("bob", 20)] {
            let result = try await tool.run(["demo", "--store", store, "--sessions", "\(sessions)", "--practitioner", id])
            #expect(result.status == 0, "\(result.standardError)")
        }
        return store
    }

    private func exportedKeys(_ store: String, _ tool: ToolRunner, _ arguments: [String]) async throws -> [Substring] {
        let result = try await tool.run(["export", "--store", store, "--format", "csv", "--columns", "key", "--output", "-"] + arguments)
        #expect(result.status == 0, "\(result.standardError)")
        return result.standardOutput.split(whereSeparator: \.isNewline).dropFirst().map { $0 }
    }

    @Test func eachPractitionerSeesTheirOwnSessions() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await makeStore(tool)
        #expect(try await exportedKeys(store, tool, ["--practitioner", "alice"]).count == 30)
        #expect(try await exportedKeys(store, tool, ["--practitioner", "bob"]).count == 20)
        let sessions = try await tool.run(["sessions", "--store", store, "--practitioner", "bob", "--limit", "100"])
        #expect(sessions.status == 0, "\(sessions.standardError)")

        let csv = tool.path("carol.csv")
        try "start,duration\n2024-04-01T07:00:00Z,600\n2024-04-02T07:00:00Z,900\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let imported = try await tool.run(["import", csv, "--format", "csv", "--store", store, "--practitioner", "carol"])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(try await exportedKeys(store, tool, ["--practitioner", "carol"]).count == 2)
        #expect(try await exportedKeys(store, tool, ["--practitioner", "alice"]).count == 30)
        let carolsRuns = try await tool.run(["imports", "--store", store, "--practitioner", "carol"])
        #expect(carolsRuns.standardOutput.split(separator: "\n").count == 1, "\(carolsRuns.standardOutput)")
        let alicesRuns = try await tool.run(["imports", "--store", store, "--practitioner", "alice"])
        #expect(alicesRuns.standardOutput.contains("no imports recorded"), "\(alicesRuns.standardOutput)")
        let report = try await tool.run(["report", "--store", store, "--practitioner", "carol", "--format", "json"])
        #expect(report.status == 0, "\(report.standardError)")
        #expect(report.standardOutput.contains("\"session_count\""), "\(report.standardOutput.prefix(400))")
    }

    @Test(arguments: [["report"], ["export", "--format", "csv", "--output", "-"], ["sessions"], ["imports"], ["demo", "--sessions", "5"]])
    func aStoreOfSeveralNeedsTheFlag(_ command: [String]) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await makeStore(tool)
        let result = try await tool.run(command + ["--store", store])
        #expect(result.status == 64, "\(command): \(result.standardError)")
        #expect(result.standardError.contains("this store holds 2 practitioners (alice, bob): name whose sessions to use with --practitioner ID"),
                "\(result.standardError)")
    }

    @Test func anUnknownPractitionerIsAUsageError() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await makeStore(tool)
        let result = try await tool.run(["report", "--store", store, "--practitioner", "nobody"])
        #expect(result.status == 64)
        #expect(result.standardError.contains("there is no practitioner 'nobody' in this store (it holds 2 practitioners (alice, bob))"),
                "\(result.standardError)")
    }
}
