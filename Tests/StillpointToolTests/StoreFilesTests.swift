import Foundation
import StillpointChildProcess
import Testing

/// An output never lands on the store it was made from, however its path is spelt, nor does standard output or
/// standard error, however it was redirected.
@Suite("outputs never overwrite the store", .serialized)
struct StoreFilesTests {
    @Test func exportAndReportRefuseEverySpellingOfTheStore() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        try FileManager.default.createSymbolicLink(atPath: tool.path("link.csv"), withDestinationPath: store)
        try FileManager.default.linkItem(atPath: store, toPath: tool.path("hard.csv"))
        try FileManager.default.createDirectory(atPath: tool.path("sub"), withIntermediateDirectories: true)
        // A WAL that does not exist yet: writing it would hand SQLite a log it never wrote.
        try FileManager.default.createSymbolicLink(atPath: tool.path("wal-link"), withDestinationPath: store + "-wal")
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let spellings = ["practice.sqlite", "./practice.sqlite", "sub/../practice.sqlite", store, "link.csv", "hard.csv",
                         "practice.sqlite-wal", "practice.sqlite-shm", "practice.sqlite-journal", "wal-link"]
        for output in spellings {
            for command in [["export", "--store", "practice.sqlite", "--output", output],
                            ["report", "--store", store, "--format", "csv", "--output", output]] {
                let result = try await tool.run(command)
                #expect(result.status == 73, "\(command): \(result.standardError)")
                #expect(result.standardError.contains("--output \(output) is the store"), "\(result.standardError)")
                #expect(!result.standardError.contains("Error Domain="))
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)
        #expect(!FileManager.default.fileExists(atPath: store + "-journal"))
        let report = try await tool.run(["report", "--store", store])
        #expect(report.status == 0, "\(report.standardError)")
        #expect(report.standardOutput.contains("1,500"))
    }

    @Test func theDefaultStoreIsProtectedToo() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let result = try await tool.run(["report", "--output", "home/practice.sqlite"])
        #expect(result.status == 73, "\(result.standardError)")
        let report = try await tool.run(["report"])
        #expect(report.status == 0, "\(report.standardError)")
        #expect(report.standardOutput.contains("2,400"))
    }

    @Test func anotherFileBesideTheStoreIsWritten() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let result = try await tool.run(["export", "--store", store, "--output", "practice.sqlite.csv"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(FileManager.default.fileExists(atPath: tool.path("practice.sqlite.csv")))
    }

    /// Every command that reads or writes a store, with what makes it run here (the store and a CSV to import).
    static func storeCommands(store: String, csv: String) -> [[String]] {
        [["report", "--store", store], ["report", "--store", store, "--format", "json"], ["report", "--store", store, "--output", "-"],
         ["sessions", "--store", store], ["sessions", "--store", store, "--live", "--snapshots", "1"],
         ["export", "--store", store, "--output", "-"], ["check", "--store", store], ["imports", "--store", store],
         ["imports", "remove", "1", "--store", store], ["import", csv, "--format", "csv", "--store", store],
         ["demo", "--sessions", "10", "--store", store],
         // What the argument parser prints before any command runs: help, a usage error, a mistyped command.
         ["report", "--store", store, "--help"], ["report", "--store=\(store)", "--no-such-option"], ["reprot", "--store", store]]
    }

    /// Runs the tool with standard output, or standard error, open read-write on `file` from its start, as the
    /// shell's `1<>file` and `2<>file` do; the other stream is read apart.
    static func run(_ arguments: [String], in tool: ToolRunner, descriptor: Int32, onto file: String) throws
        -> (status: Int32, otherStream: String) {
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: file))
        defer { try? handle.close() }
        let onFile = ChildProcess.Output.descriptor(handle.fileDescriptor)
        let child = descriptor == STDOUT_FILENO ? try tool.start(arguments, standardOutput: onFile)
                                                : try tool.start(arguments, standardError: onFile)
        let result = child.waitForResult()
        return (result.status, descriptor == STDOUT_FILENO ? result.standardError : result.standardOutput)
    }

    /// The store's bytes and modification time, and which of its companion files exist.
    static func state(of store: String) throws -> [String] {
        var state = [try Data(contentsOf: URL(fileURLWithPath: store)).base64EncodedString()]
        let attributes = try FileManager.default.attributesOfItem(atPath: store)
        state.append("\((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)")
        for suffix in ["-wal", "-journal"] where FileManager.default.fileExists(atPath: store + suffix) { state.append(suffix) }
        return state
    }

    @Test(.timeLimit(.minutes(5)))
    func standardOutputOrErrorOpenOnTheStoreIsRefusedBeforeAnythingIsWritten() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let csv = try SessionsCommandTests.writeSessions(["2025-06-01T06:00:00Z,1200"], in: tool)
        _ = try await tool.run(["import", csv, "--format", "csv", "--store", store])
        try FileManager.default.linkItem(atPath: store, toPath: tool.path("hard-link.sqlite"))
        let before = try Self.state(of: store)
        for command in Self.storeCommands(store: store, csv: csv) {
            // Standard output: the refusal says what and where on standard error.
            for file in [store, tool.path("hard-link.sqlite")] {
                let (status, errors) = try Self.run(command, in: tool, descriptor: STDOUT_FILENO, onto: file)
                #expect(status == 73, "\(command) 1<>\(file): \(status) \(errors)")
                #expect(errors.contains("standard output is the store (\(store))"), "\(command): \(errors)")
                #expect(try Self.state(of: store) == before, "\(command) 1<>\(file) changed the store")
            }
            // Standard error: nothing at all is written there; the refusal goes to standard output.
            let (status, output) = try Self.run(command, in: tool, descriptor: STDERR_FILENO, onto: store)
            #expect(status == 73, "\(command) 2<>store: \(status) \(output)")
            #expect(output.contains("standard error is the store (\(store))"), "\(command): \(output)")
            #expect(try Self.state(of: store) == before, "\(command) 2<>store changed the store")
        }
        // The store a manifest names (store:) is a SQLite database, refused before the command line is read; a
        // store file that is still empty is checked when the report opens it.
        let manifest = tool.path("mine.yaml")
        try "version: 1\nstore: practice.sqlite\nstatistics: [session_count]\n".write(toFile: manifest, atomically: true, encoding: .utf8)
        let (manifestStatus, manifestErrors) = try Self.run(["report", "--config", manifest], in: tool, descriptor: STDOUT_FILENO, onto: store)
        #expect(manifestStatus == 73, "\(manifestErrors)")
        #expect(manifestErrors.contains("standard output is a SQLite database (\(store))"), "\(manifestErrors)")
        #expect(try Self.state(of: store) == before)
        let emptyStore = tool.path("empty.sqlite")
        try #require(FileManager.default.createFile(atPath: emptyStore, contents: nil))
        let emptyManifest = tool.path("empty.yaml")
        try "version: 1\nstore: empty.sqlite\nstatistics: [session_count]\n".write(toFile: emptyManifest, atomically: true, encoding: .utf8)
        let (emptyStatus, emptyErrors) = try Self.run(["report", "--config", emptyManifest], in: tool, descriptor: STDOUT_FILENO, onto: emptyStore)
        #expect(emptyStatus == 73, "\(emptyErrors)")
        #expect(emptyErrors.contains("standard output is the store (\(emptyStore))"), "\(emptyErrors)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: emptyStore)).isEmpty)
        // Any SQLite database is refused, even when the command names another store or none.
        for command in [["report", "--store", tool.path("other.sqlite"), "--help"], ["--version"], ["validate", manifest]] {
            let (status, errors) = try Self.run(command, in: tool, descriptor: STDOUT_FILENO, onto: tool.path("hard-link.sqlite"))
            #expect(status == 73, "\(command): \(errors)")
            #expect(errors.contains("standard output is a SQLite database (\(tool.path("hard-link.sqlite")))"), "\(command): \(errors)")
        }
        #expect(try Self.state(of: store) == before)
        // The write-ahead log and the journal are the store's too.
        for suffix in ["-wal", "-journal"] {
            let companion = store + suffix
            try #require(FileManager.default.createFile(atPath: companion, contents: nil))
            let (status, errors) = try Self.run(["report", "--store", store], in: tool, descriptor: STDOUT_FILENO, onto: companion)
            #expect(status == 73, "\(errors)")
            #expect(errors.contains("standard output is the store's"), "\(errors)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: companion)).isEmpty)
            try FileManager.default.removeItem(atPath: companion)
        }
        let check = try await tool.run(["check", "--store", store])
        #expect(check.status == 0, "\(check.standardError)")
        #expect(check.standardOutput.contains("1501 sessions"), "\(check.standardOutput)")
    }

    @Test func standardOutputOntoTheDefaultStoreIsRefused() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let first = try await tool.run(["check"])
        #expect(first.status == 0, "\(first.standardError)")
        let store = tool.path("home/practice.sqlite")
        let before = try Self.state(of: store)
        for command in [["report"], ["sessions"], ["check"]] {
            let (status, errors) = try Self.run(command, in: tool, descriptor: STDOUT_FILENO, onto: store)
            #expect(status == 73, "\(command): \(errors)")
            #expect(errors.contains("standard output is the store (\(store))"), "\(errors)")
        }
        #expect(try Self.state(of: store) == before)
    }

    /// `stillpoint import FILE --store new.sqlite > new.sqlite`: the shell makes the file before the tool runs.
    @Test func standardOutputOntoANewStoreIsRefusedToo() throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let csv = try SessionsCommandTests.writeSessions(["2025-06-01T06:00:00Z,1200"], in: tool)
        let store = tool.path("new.sqlite")
        for command in [["import", csv, "--format", "csv", "--store", store], ["demo", "--sessions", "10", "--store", store]] {
            try #require(FileManager.default.createFile(atPath: store, contents: nil))
            let (status, errors) = try Self.run(command, in: tool, descriptor: STDOUT_FILENO, onto: store)
            #expect(status == 73, "\(command): \(errors)")
            #expect(errors.contains("standard output is the store"), "\(errors)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: store)).isEmpty)
        }
    }
}
