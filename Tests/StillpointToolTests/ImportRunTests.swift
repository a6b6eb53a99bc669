import Foundation
import Testing

/// Imports are runs: the same file imported again replaces its earlier run, and a run can be removed.
@Suite("import runs", .serialized)
struct ImportRunTests {
    static let csv = "start,duration\n2024-03-01T07:00:00,600\n2024-03-02T07:00:00,900\n2024-03-03T21:30:00,1200\n"

    /// The same file with another --time-zone moves every session to other instants (other keys): without runs
    /// it doubled them; as runs, the new one replaces the old.
    @Test func importingAFileAgainWithOtherOptionsReplacesItsEarlierRun() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("s.sqlite")
        let file = tool.path("log.csv")
        try Self.csv.write(toFile: file, atomically: true, encoding: .utf8)
        let first = try await tool.run(["import", file, "--format", "csv", "--store", store])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("as run 1: 3 new"))
        let second = try await tool.run(["import", file, "--format", "csv", "--store", store, "--time-zone", "America/New_York"])
        #expect(second.status == 0, "\(second.standardError)")
        #expect(second.standardError.contains("this file was imported before (run 1"), "\(second.standardError)")
        #expect(second.standardError.contains("removed the 3 sessions the earlier import read that no other run read"))
        #expect(try await ImportCommandTests().count(store, in: tool) == 3)

        let again = try await tool.run(["import", file, "--format", "csv", "--store", store, "--time-zone", "America/New_York"])
        #expect(again.standardOutput.contains("as run 3: 0 new, 0 updated, 3 already there"), "\(again.standardOutput)")
        #expect(try await ImportCommandTests().count(store, in: tool) == 3)

        let listed = try await tool.run(["imports", "--store", store])
        #expect(listed.status == 0, "\(listed.standardError)")
        #expect(listed.standardOutput.split(separator: "\n").count == 1, "\(listed.standardOutput)")
        #expect(listed.standardOutput.contains("run 3"))
        #expect(listed.standardOutput.contains("--time-zone America/New_York"))
        #expect(listed.standardOutput.contains("3 sessions now"))
    }

    /// Two processes importing the same file at the same moment: neither takes the other's sessions away, and
    /// every session of the file is there once both end; a later import of it replaces both runs.
    @Test func twoImportsOfTheSameFileAtOnceLoseNothing() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("s.sqlite")
        let file = tool.path("many.csv")
        try StoreFaultTests.writeCSV(rows: 20_000, to: file)
        let created = try await tool.run(["demo", "--sessions", "0", "--store", store])
        #expect(created.status == 0, "\(created.standardError)")
        let imports = try (0..<2).map { _ in try RunningTool(["import", file, "--format", "csv", "--store", store], in: tool) }
        for running in imports {
            #expect(running.waitForExit(within: .seconds(180)) == 0, "\(running.standardError)")
        }
        #expect(try await ImportCommandTests().count(store, in: tool) == 20_000)
        let again = try await tool.run(["import", file, "--format", "csv", "--store", store])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(try await ImportCommandTests().count(store, in: tool) == 20_000)
        let listed = try await tool.run(["imports", "--store", store])
        #expect(listed.standardOutput.split(separator: "\n").count == 1, "\(listed.standardOutput)")
    }

    /// Removing a run changes a store; it never makes one.
    @Test func removingARunFromAStoreThatDoesNotExistMakesNone() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("none.sqlite")
        let result = try await tool.run(["imports", "remove", "1", "--store", store])
        #expect(result.status == 66, "\(result.standardError)")
        #expect(result.standardError.contains("there is no store at"), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: store))
    }

    /// A run whose every row was skipped (a wrong column) must not take away what the earlier run wrote.
    @Test func aRunThatKeptNothingReplacesNothing() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("s.sqlite")
        let file = tool.path("log.csv")
        try Self.csv.write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try await tool.run(["import", file, "--format", "csv", "--store", store]).status == 0)
        let wrong = try await tool.run(["import", file, "--format", "csv", "--store", store, "--duration-column", "start"])
        #expect(wrong.status == 65, "\(wrong.standardError)")
        #expect(!wrong.standardError.contains("replaces it"))
        #expect(try await ImportCommandTests().count(store, in: tool) == 3)
    }

    @Test func removingARunRemovesItsSessionsOnly() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("s.sqlite")
        let file = tool.path("log.csv")
        try Self.csv.write(toFile: file, atomically: true, encoding: .utf8)
        let other = tool.path("other.csv")
        try "start,duration\n2024-04-01T07:00:00Z,600\n".write(toFile: other, atomically: true, encoding: .utf8)
        #expect(try await tool.run(["import", file, "--format", "csv", "--store", store]).status == 0)
        #expect(try await tool.run(["import", other, "--format", "csv", "--store", store]).status == 0)
        #expect(try await ImportCommandTests().count(store, in: tool) == 4)
        let removed = try await tool.run(["imports", "remove", "1", "--store", store])
        #expect(removed.status == 0, "\(removed.standardError)")
        #expect(removed.standardOutput.contains("removed run 1 and the 3 sessions no other run read"))
        #expect(try await ImportCommandTests().count(store, in: tool) == 1)
        let missing = try await tool.run(["imports", "remove", "1", "--store", store])
        #expect(missing.status == 64)
        #expect(missing.standardError.contains("there is no import run 1"))
    }
}
