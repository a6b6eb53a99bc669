import Foundation
import Testing

/// End to end: a store written by a newer Stillpoint is refused, naming both versions, and left untouched.
@Suite("Store version", .serialized)
struct StoreVersionTests {
    static let commands: [[String]] = [
        ["report"], ["export", "--output", "out.csv"], ["check"], ["demo", "--sessions", "10"],
        ["import", ImportCommandTests.fixture("generic-sessions.csv"), "--format", "csv", "--start-column", "Date",
         "--duration-column", "Minutes", "--duration-unit", "minutes"],
    ]

    @Test(arguments: commands)
    func aStoreOfANewerVersionIsRefusedBeforeAnythingIsWritten(command: [String]) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let check = try await tool.run(["check", "--store", store])
        #expect(check.standardOutput.contains("store version 2"), "\(check.standardOutput) \(check.standardError)")
        try StoreFile(path: store).setVersion(9)
        let files = try Self.snapshot(tool.directory)

        let result = try await tool.run(command + ["--store", store])
        #expect(result.status == 65, "\(result.status) \(result.standardError)")
        #expect(result.standardError.contains("version 9"), "\(result.standardError)")
        #expect(result.standardError.contains("versions up to 2"))
        #expect(result.standardError.contains(store))
        #expect(try Self.snapshot(tool.directory) == files)
    }

    /// Every file of the folder and its bytes, leaving out the WAL index and an empty WAL, which a reader may
    /// create.
    static func snapshot(_ directory: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where !name.hasSuffix("-shm") {
            var isDirectory: ObjCBool = false
            let path = directory.appendingPathComponent(name).path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            if name.hasSuffix("-wal"), data.isEmpty { continue }
            files[name] = data
        }
        return files
    }
}
