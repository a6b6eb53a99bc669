import Foundation
import GRDB
import Testing

/// End to end: `stillpoint check` runs SQLite's full integrity check and summarizes the store.
@Suite("stillpoint check", .serialized)
struct CheckCommandTests {
    @Test func aSoundStoreIsOk() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let result = try await tool.run(["check", "--store", store])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput == "ok: \(store): 1500 sessions, store version 2 (this Stillpoint reads up to version 2)\n")
    }

    @Test func theDefaultStoreIsCheckedWithoutAStoreOption() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let result = try await tool.run(["check"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("ok: \(tool.path("home/practice.sqlite")): 2400 sessions"))
    }

    @Test func aDamagedStoreIsReportedWithExit65() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        // Scribble over the pages of one index, as a failing disk would; the tables and the schema stay readable,
        // and the store was closed cleanly, so only a full check finds the damage.
        let (rootPage, pageSize) = try { () throws -> (Int, Int) in
            let queue = try DatabaseQueue(path: store)
            defer { try? queue.close() }
            return try queue.read { db in
                (try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE type = 'index' AND name LIKE 'index_Session_kind%'") ?? 0,
                 try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096)
            }
        }()
        try #require(rootPage > 1)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: store))
        let start = (rootPage - 1) * pageSize
        for offset in stride(from: start + 8, to: min(start + pageSize, bytes.count), by: 3) { bytes[offset] = 0x5A }
        try bytes.write(to: URL(fileURLWithPath: store))

        let result = try await tool.run(["check", "--store", store])
        #expect(result.status == 65, "\(result.status) \(result.standardError)")
        #expect(result.standardOutput.contains("damage: "), "\(result.standardOutput)")
        #expect(result.standardError.contains("\(store) is damaged"))
        #expect(result.standardError.contains("restore it from a backup"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == bytes)
    }
}
