import Foundation
import Testing

/// Manifests and predicates written to exhaust the tool: each ends as a located data or usage error, never
/// as a process that runs out of memory, hangs or dies of a stack overflow.
@Suite("hostile manifests", .serialized)
struct HostileManifestTests {
    /// `kinds` stands for ten million values: seven levels of lists of ten aliases of the level below.
    static let anchorBomb: String = {
        let aliases = { (level: Int) in "[" + Array(repeating: "*a\(level)", count: 10).joined(separator: ", ") + "]" }
        var lines = ["version: 1", "filters: {kinds: &a0 [" + Array(repeating: "lol", count: 10).joined(separator: ", ") + "]}",
                     "statistics:", "  - id: session_count", "    parameters:", "      kinds:"]
        lines += (1...7).map { "        - &a\($0) " + aliases($0 - 1) }
        return lines.joined(separator: "\n") + "\n"
    }()

    static let deepPredicate = String(repeating: "(", count: 10_000) + "duration > 0" + String(repeating: ")", count: 10_000)

    /// Runs the tool, stopping it if it has not ended after a minute (a hang is then a failure, not a stall).
    func run(_ arguments: [String], in tool: ToolRunner) throws -> ToolRunner.Result {
        let child = try tool.start(arguments)
        if child.waitUntilExit(within: .seconds(60)) == nil { child.signal(SIGTERM) }
        return child.waitForResult()
    }

    func manifest(_ yaml: String, in tool: ToolRunner) throws -> String {
        let path = tool.path("hostile.yaml")
        try yaml.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func anAnchorBombIsADataError() throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let path = try manifest(Self.anchorBomb, in: tool)
        for arguments in [["validate", path], ["report", "--config", path, "--store", tool.path("none.sqlite")]] {
            let result = try run(arguments, in: tool)
            #expect(result.status == 65, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains("\(path):9:"), "\(result.standardError)")
            #expect(result.standardError.contains("aliases"), "\(result.standardError)")
        }
    }

    @Test func aDeeplyNestedWhereIsADataError() throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let path = try manifest("""
            version: 1
            custom_statistics:
              deep: {function: count, where: "\(Self.deepPredicate)"}
            statistics: [deep]
            """, in: tool)
        let result = try run(["validate", path], in: tool)
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardError.contains("\(path):3:"), "\(result.standardError)")
        #expect(result.standardError.contains("nest more than"), "\(result.standardError)")
    }

    @Test func aDeeplyNestedWhereOnTheCommandLineIsAUsageError() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let result = try run(["export", "--store", store, "--where", Self.deepPredicate, "--output", "out.csv"], in: tool)
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains("nest more than"), "\(result.standardError)")
        #expect(result.standardError.count < 1_000, "the message repeats the whole predicate")
        #expect(!FileManager.default.fileExists(atPath: tool.path("out.csv")))
    }
}
