import Foundation
import Testing

/// End to end: what `--store` may name, and which commands may create a store.
@Suite("Opening the store", .serialized)
struct StoreOpeningTests {
    static let commands: [[String]] = [
        ["report"], ["export", "--output", "out.csv"], ["check"],
        ["import", ImportCommandTests.fixture("generic-sessions.csv"), "--format", "csv", "--start-column", "Date",
         "--duration-column", "Minutes", "--duration-unit", "minutes"],
        ["demo", "--sessions", "10"],
    ]

    @Test(arguments: commands)
    func aFolderAsTheStoreIsAClearError(command: [String]) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let folder = tool.path("sessions")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let result = try await tool.run(command + ["--store", folder])
        #expect(result.status == 66, "\(result.status) \(result.standardError)")
        #expect(result.standardError.contains("\(folder) is a folder"), "\(result.standardError)")
        #expect(result.standardError.contains("practice.sqlite"))
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    /// A device or a FIFO is not a folder: the message says what it is, not to make `/dev/null/practice.sqlite`.
    @Test(arguments: commands)
    func aDeviceOrAFIFOAsTheStoreIsNotCalledAFolder(command: [String]) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let fifo = tool.path("pipe")
        try #require(mkfifo(fifo, 0o600) == 0)
        for (store, kind) in [("/dev/null", "a character device"), (fifo, "a FIFO (named pipe)")] {
            let result = try await tool.run(command + ["--store", store])
            #expect(result.status == 66, "\(result.status) \(result.standardError)")
            #expect(result.standardError.contains("\(store) is \(kind), not a regular file"), "\(result.standardError)")
            #expect(!result.standardError.contains("folder") && !result.standardError.contains("\(store)/"), "\(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1)
        }
    }

    @Test(arguments: [["report"], ["export", "--output", "out.csv"], ["check"]])
    func aReadingCommandDoesNotCreateAMissingStore(command: [String]) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("typo.sqlite")
        let result = try await tool.run(command + ["--store", store])
        #expect(result.status == 66, "\(result.status) \(result.standardError)")
        #expect(result.standardError.contains("there is no store at \(store)"))
        #expect(result.standardError.contains("stillpoint import FILE --store \(store)"))
        #expect(result.standardError.contains("stillpoint demo --store \(store)"))
        #expect(!FileManager.default.fileExists(atPath: store))
        #expect(!FileManager.default.fileExists(atPath: tool.path("out.csv")))
    }

    @Test func writingCommandsCreateTheStore() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("new.sqlite")
        let result = try await tool.run(["demo", "--sessions", "20", "--store", store])
        #expect(result.status == 0, "\(result.standardError)")
        let check = try await tool.run(["check", "--store", store])
        #expect(check.status == 0, "\(check.standardError)")
        #expect(check.standardOutput.contains("20 sessions"))
    }
}
