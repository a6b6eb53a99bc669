import Foundation
import Testing

/// Bad input: a non-zero exit, a message that says what and where, and every file left as it was.
@Suite("stillpoint errors", .serialized)
struct ErrorCaseTests {
    /// Runs the tool and checks that it failed, said `expected`, and changed none of `files`.
    func expectFailure(_ arguments: [String], saying expected: [String], leaving files: [String], in tool: ToolRunner,
                       sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let before = files.map { FileManager.default.contents(atPath: $0) }
        let result = try await tool.run(arguments)
        #expect(result.status != 0, sourceLocation: sourceLocation)
        for text in expected {
            #expect(result.standardError.contains(text), "stderr: \(result.standardError)", sourceLocation: sourceLocation)
        }
        #expect(files.map { FileManager.default.contents(atPath: $0) } == before, "a file changed", sourceLocation: sourceLocation)
    }

    func manifest(_ yaml: String, in tool: ToolRunner) throws -> String {
        let path = tool.path("manifest-\(UUID().uuidString).yaml")
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aMalformedManifest() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let path = try manifest("version: 1\nstatistics:\n  - id: session_count\n   - id: total_time\n", in: tool)
        try await expectFailure(["report", "--config", path, "--store", store], saying: [path, ":4:"], leaving: [path, store], in: tool)
    }

    @Test func anUnknownStatistic() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let path = try manifest("version: 1\nstatistics:\n  - id: curent_streak\n", in: tool)
        try await expectFailure(["report", "--config", path, "--store", store], saying: ["\(path):3:", "curent_streak", "current_streak"],
                          leaving: [path, store], in: tool)
        try await expectFailure(["validate", path], saying: ["\(path):3:", "current_streak"], leaving: [path], in: tool)
    }

    @Test func aWrongParameterType() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let path = try manifest("version: 1\nstatistics:\n  - id: best_streaks\n    parameters: {count: many}\n", in: tool)
        try await expectFailure(["report", "--config", path, "--store", store], saying: ["\(path):4:", "count", "many"],
                          leaving: [path, store], in: tool)
    }

    @Test func aStoreThatIsNotADatabase() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("notes.sqlite")
        try "Started At,Duration,Preset,Activity\n".write(toFile: store, atomically: true, encoding: .utf8)
        try await expectFailure(["report", "--store", store], saying: [store, "not a SQLite database"], leaving: [store], in: tool)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tool.directory.path).sorted() == ["notes.sqlite"])
    }

    @Test func aMissingDirectory() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("missing/practice.sqlite")
        // A reader is told there is no store there; a writer, that the folder to put it in is missing.
        try await expectFailure(["report", "--store", store], saying: ["there is no store at \(store)"], leaving: [], in: tool)
        try await expectFailure(["demo", "--store", store], saying: [tool.path("missing"), "does not exist"], leaving: [], in: tool)
        #expect(!FileManager.default.fileExists(atPath: tool.path("missing")))
    }

    @Test func aMissingManifest() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let path = tool.path("nowhere.yaml")
        try await expectFailure(["report", "--config", path], saying: [path], leaving: [], in: tool)
        try await expectFailure(["validate", path], saying: [path], leaving: [], in: tool)
        #expect(!FileManager.default.fileExists(atPath: tool.path("home/practice.sqlite")), "no store was made for a failed report")
    }

    @Test func aBadPredicateForExport() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let output = tool.path("out.csv")
        try await expectFailure(["export", "--store", store, "--where", "kind == ", "--output", output], saying: ["--where \"kind == \"", "after '=='", "column 9"],
                          leaving: [store], in: tool)
        #expect(!FileManager.default.fileExists(atPath: output))
    }
}
