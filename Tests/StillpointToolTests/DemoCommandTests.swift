import Foundation
import Testing

/// `stillpoint demo`: a new store appears whole or not at all.
@Suite("stillpoint demo", .serialized)
struct DemoCommandTests {
    @Test(.enabled(if: TestMount.available, "mounting a small tmpfs needs root and a system that allows it"))
    func aDemoThatFailsLeavesNoStore() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let disk = try TestMount.tmpfs(at: tool.path("disk"), size: "1m")
        defer { disk.unmount() }
        let store = disk.path + "/demo.sqlite"
        let result = try await tool.run(["demo", "--sessions", "50000", "--store", store])
        #expect(result.status == 74, "\(result.standardError)")
        #expect(result.standardError.contains("disk is full"), "\(result.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).isEmpty, "the failed demo left files behind")
    }

    @Test func aNewStoreIsWholeAndADemoAgainAddsNothing() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("demo.sqlite")
        let first = try await tool.run(["demo", "--sessions", "3000", "--store", store, "--ending-at", "2025-05-31T20:00:00Z"])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("wrote 3000 demo sessions"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: tool.directory.path).filter { $0.contains("partial") }.isEmpty)
        let again = try await tool.run(["demo", "--sessions", "3000", "--store", store, "--ending-at", "2025-05-31T20:00:00Z"])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.standardOutput.contains("wrote 0 demo sessions (3000 were already there)"))
        let check = try await tool.run(["check", "--store", store])
        #expect(check.status == 0, "\(check.standardError)")
        #expect(check.standardOutput.contains("3000 sessions") || check.standardOutput.contains("3,000 sessions"), "\(check.standardOutput)")
    }
}
