import Foundation
import Testing

/// End to end: an import killed at random moments, and an import that fills the disk, leave a sound store that
/// the next run completes or reads.
@Suite("Store faults", .serialized)
struct StoreFaultTests {
    /// A generic CSV of `rows` sessions, 37 minutes apart, so that every row has its own import key.
    static func writeCSV(rows: Int, to path: String) throws {
        var text = "start,duration,kind\n"
        let formatter = ISO8601DateFormatter()
        let first = Date(timeIntervalSince1970: 1_577_836_800)  // 2020-01-01
        for row in 0..<rows {
            text += "\(formatter.string(from: first.addingTimeInterval(Double(row) * 37 * 60))),\(300 + row % 1_000),\(row % 2 == 0 ? "meditation" : "yoga")\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func importArguments(_ csv: String, store: String) -> [String] {
        ["import", csv, "--format", "csv", "--store", store]
    }

    @Test func anImportKilledAtRandomMomentsLeavesASoundStoreAndTheRerunCompletesIt() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let rows = 20_000
        let csv = tool.path("sessions.csv")
        try Self.writeCSV(rows: rows, to: csv)
        let store = tool.path("practice.sqlite")
        let file = StoreFile(path: store)
        for _ in 0..<20 {
            let running = try RunningTool(Self.importArguments(csv, store: store), in: tool)
            usleep(UInt32.random(in: 30_000...700_000))
            running.kill()
            guard FileManager.default.fileExists(atPath: store) else { continue }
            #expect(try file.integrityCheck() == ["ok"])
            // Killed before the first open made the tables: an empty store, which the next run completes.
            guard try file.integer(#"SELECT count(*) FROM sqlite_master WHERE name = 'Session'"#) == 1 else { continue }
            #expect(try file.integer(#"SELECT count(*) - count(DISTINCT "key") FROM "Session""#) == 0)
        }
        let rerun = try await tool.run(Self.importArguments(csv, store: store))
        #expect(rerun.status == 0, "\(rerun.standardError)")
        #expect(try file.integer(#"SELECT count(*) FROM "Session""#) == rows)
        #expect(try file.integer(#"SELECT count(DISTINCT "key") FROM "Session""#) == rows)
        #expect(try file.integrityCheck() == ["ok"])
        let check = try await tool.run(["check", "--store", store])
        #expect(check.status == 0, "\(check.standardError)")
        #expect(check.standardOutput.contains("\(rows) sessions"))
    }

    @Test(.enabled(if: TestMount.available, "mounting a small tmpfs needs root and a system that allows it"))
    func anImportThatFillsTheDiskFailsClearlyAndLeavesTheStoreUsable() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let csv = tool.path("sessions.csv")
        try Self.writeCSV(rows: 30_000, to: csv)
        let disk = try TestMount.tmpfs(at: tool.path("disk"), size: "1m")
        defer { disk.unmount() }
        let store = tool.path("disk/practice.sqlite")

        let result = try await tool.run(Self.importArguments(csv, store: store))
        #expect(result.status == 74, "\(result.status) \(result.standardError)")
        #expect(result.standardError.contains("the disk is full"), "\(result.standardError)")
        #expect(!result.standardError.contains("Error Domain="))

        let report = try await tool.run(["report", "--store", store, "--format", "json", "--as-of", ReportCommandTests.asOf])
        #expect(report.status == 0, "\(report.standardError)")
        #expect(report.standardOutput.contains("\"session_count\""))
        let check = try await tool.run(["check", "--store", store])
        #expect(check.status == 0, "\(check.standardOutput) \(check.standardError)")
        #expect(try StoreFile(path: store).integrityCheck() == ["ok"])
    }
}
