import Foundation
import Testing

/// What `import` says when rows are skipped: nothing imported is a failure, and `--strict` imports all or nothing.
@Suite("import: skipped rows and --strict", .serialized)
struct ImportStrictnessTests {
    static let mixed = "start,duration\n2024-01-01T07:00:00Z,600\n2024-01-02T07:00:00Z,abc\n2024-01-03T07:00:00Z,900\n"

    @Test func aFileThatBreaksOffSaysWhereEvenWhenNoRowWasImported() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let file = tool.path("broken.csv")
        try "start,duration\n2024-01-01T00:00:00Z,10000000000000000000\n2024-01-02T00:00:00Z,\"600\n2024-01-03T00:00:00Z,600\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        let result = try await tool.run(["import", file, "--format", "csv", "--store", tool.path("s.sqlite")])
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardError.contains("line 3"), "\(result.standardError)")
        #expect(result.standardError.contains("quote"), "\(result.standardError)")
    }

    @Test func anImportThatSkipsEveryRowFails() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let file = tool.path("wrong-columns.csv")
        try "start,duration\nMonday,ten\nTuesday,twelve\n".write(toFile: file, atomically: true, encoding: .utf8)
        let result = try await tool.run(["import", file, "--format", "csv", "--store", tool.path("s.sqlite")])
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardError.contains("no session was imported: all 2 rows were skipped"))
        let partly = tool.path("mixed.csv")
        try Self.mixed.write(toFile: partly, atomically: true, encoding: .utf8)
        let imported = try await tool.run(["import", partly, "--format", "csv", "--store", tool.path("s.sqlite")])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("2 new, 0 updated, 0 already there, 1 skipped"))
    }

    @Test func strictImportsNothingWhenARowWouldBeSkipped() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let file = tool.path("mixed.csv")
        try Self.mixed.write(toFile: file, atomically: true, encoding: .utf8)
        let result = try await tool.run(["import", file, "--format", "csv", "--store", store, "--strict"])
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardError.contains("would skip line 3: duration 'abc'"))
        #expect(result.standardError.contains("--strict: 1 row would be skipped, so nothing was imported"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        #expect(try await ImportCommandTests().count(store, in: tool) == 1_500)

        let piped = try await tool.run(["import", "-", "--format", "csv", "--store", store, "--strict"], input: .pipe(Data(Self.mixed.utf8)))
        #expect(piped.status == 65, "\(piped.standardError)")
        #expect(try await ImportCommandTests().count(store, in: tool) == 1_500)
    }

    @Test func strictImportsAFileWithNoBadRow() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("s.sqlite")
        let good = "start,duration\n2024-01-01T07:00:00Z,600\n2024-01-03T07:00:00Z,900\n"
        let piped = try await tool.run(["import", "-", "--format", "csv", "--store", store, "--strict"], input: .pipe(Data(good.utf8)))
        #expect(piped.status == 0, "\(piped.standardError)")
        #expect(piped.standardOutput.contains("2 new"))
        #expect(try await ImportCommandTests().count(store, in: tool) == 2)
    }
}
