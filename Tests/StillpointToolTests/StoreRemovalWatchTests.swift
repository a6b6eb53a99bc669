import Foundation
import Testing

/// End to end: a SQLite store removed, or replaced by another file, while `sessions --live` or `report --watch`
/// follows it ends the command once, with a line on standard error and status 66, instead of following a file
/// nobody will write again.
@Suite("a followed store that goes away", .serialized)
struct StoreRemovalWatchTests {
    /// The two following commands, and the line each writes on standard error once it follows the store.
    static let following: [(command: [String], started: String)] = [
        (["sessions", "--live", "--limit", "3"], "following the store"),
        (["report", "--watch", "--format", "json", "--as-of", ReportCommandTests.asOf], "watching the store"),
    ]

    static func removeStore(_ store: String) throws {
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: store + suffix) {
            try FileManager.default.removeItem(atPath: store + suffix)
        }
    }

    @Test(.timeLimit(.minutes(3)), arguments: [0, 1])
    func aRemovedStoreEndsTheCommandWithOneLine(index: Int) async throws {
        let (command, started) = Self.following[index]
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let running = try RunningTool(command + ["--store", store], in: tool)
        defer { running.kill() }
        try #require(running.waitForError(within: .seconds(60)) { $0.contains(started) }, "\(running.standardError)")
        try Self.removeStore(store)
        let status = running.waitForExit(within: .seconds(10))
        #expect(status == 66, "\(String(describing: status)) \(running.standardError)")
        let lines = running.standardError.split(separator: "\n").filter { $0.contains("was removed") }
        #expect(lines.count == 1, "\(running.standardError)")
        #expect(lines.first?.contains("the store \(store) was removed while it was followed") == true, "\(running.standardError)")
        #expect(!FileManager.default.fileExists(atPath: store), "nothing made the store again")
    }

    @Test(.timeLimit(.minutes(3)), arguments: [0, 1])
    func aReplacedStoreEndsTheCommandWithOneLine(index: Int) async throws {
        let (command, started) = Self.following[index]
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let other = tool.path("other.sqlite")
        let made = try await tool.run(["demo", "--sessions", "20", "--store", other])
        #expect(made.status == 0, "\(made.standardError)")
        let running = try RunningTool(command + ["--store", store], in: tool)
        defer { running.kill() }
        try #require(running.waitForError(within: .seconds(60)) { $0.contains(started) }, "\(running.standardError)")
        try Self.removeStore(store)
        try FileManager.default.moveItem(atPath: other, toPath: store)
        let status = running.waitForExit(within: .seconds(10))
        #expect(status == 66, "\(String(describing: status)) \(running.standardError)")
        let lines = running.standardError.split(separator: "\n").filter { $0.contains("was replaced") }
        #expect(lines.count == 1, "\(running.standardError)")
        #expect(lines.first?.contains("run the command again to follow the new one") == true, "\(running.standardError)")
    }
}
