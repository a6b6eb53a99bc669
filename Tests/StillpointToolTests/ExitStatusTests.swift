import Foundation
import Testing

/// Every failure is one line a person can act on, with the `sysexits.h` status that fits it.
@Suite("exit statuses and messages", .serialized)
struct ExitStatusTests {
    /// What no message may show: Foundation's error dumps, Swift type descriptions, backtraces.
    static let internals = ["Error Domain=", "NSCocoaErrorDomain", "UserInfo=", "Swift.", "(path:", "Fatal error", "Stack dump",
                            // An API hint meant for the developer of an operation, not for a person running a report.
                            "outcome(of:)"]

    func expect(_ arguments: [String], status: Int32, saying expected: String, in tool: ToolRunner,
                sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let result = try await tool.run(arguments)
        #expect(result.status == status, "\(arguments): \(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.standardError.contains(expected), "\(result.standardError)", sourceLocation: sourceLocation)
        for text in Self.internals {
            #expect(!result.standardError.contains(text), "\(result.standardError)", sourceLocation: sourceLocation)
        }
        let lines = result.standardError.split(separator: "\n").filter { !$0.hasPrefix("Usage:") && !$0.hasPrefix("  See ") }
        #expect(lines.count == 1, "more than one line: \(result.standardError)", sourceLocation: sourceLocation)
    }

    @Test func usageMistakesExit64() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        try await expect(["report", "--store", store, "--format", "pdf"], status: 64, saying: "'pdf' is not a report format", in: tool)
        try await expect(["export", "--store", store, "--where", "kind ==", "--output", "out.csv"], status: 64,
                   saying: "--where \"kind ==\": expected a value after '==' at column 8", in: tool)
        try await expect(["demo", "--years", "9223372036854775807", "--store", store], status: 64, saying: "--years", in: tool)
        try await expect(["bogus"], status: 64, saying: "'bogus' is not a stillpoint command; the commands are report, import", in: tool)
        try await expect(["reprot", "--store", store], status: 64, saying: "did you mean 'report'?", in: tool)
    }

    @Test func theVersionIsPrinted() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let result = try await tool.run(["--version"])
        #expect(result.status == 0)
        #expect(result.standardOutput.hasPrefix("stillpoint 0."), "\(result.standardOutput)")
    }

    @Test func badDataExits65() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let notAStore = tool.path("notes.sqlite")
        try "not a database\n".write(toFile: notAStore, atomically: true, encoding: .utf8)
        try await expect(["report", "--store", notAStore], status: 65, saying: "\(notAStore) is not a SQLite database", in: tool)
        // A file that is not a manifest at all is not echoed back whole.
        let notAManifest = tool.path("notes.txt")
        try (0..<200).map { "note \($0) breathe" }.joined(separator: " ").write(toFile: notAManifest, atomically: true, encoding: .utf8)
        try await expect(["report", "--config", notAManifest], status: 65, saying: "not 'note 0 breathe note 1 breathe note 2 bre…'", in: tool)
        let result = try await tool.run(["report", "--config", notAManifest])
        #expect(result.standardError.count < 400, "\(result.standardError)")
    }

    @Test func missingInputExits66() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let missing = tool.path("nowhere.csv")
        try await expect(["import", missing, "--format", "csv", "--store", tool.path("s.sqlite")], status: 66, saying: missing, in: tool)
        let manifest = tool.path("nowhere.yaml")
        let validated = try await tool.run(["validate", manifest])
        #expect(validated.status == 66, "\(validated.standardError)")
        #expect(validated.standardError.contains(manifest))
    }

    @Test func validateTellsAnInvalidManifestFromAMissingOne() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let manifest = tool.path("typo.yaml")
        try "version: 1\nstatistics:\n  - id: curent_streak\n".write(toFile: manifest, atomically: true, encoding: .utf8)
        let validated = try await tool.run(["validate", manifest])
        #expect(validated.status == 65, "\(validated.standardError)")
        #expect(validated.standardError.contains("\(manifest):3:"))
        let valid = try await tool.run(["validate", ToolRunner.repositoryPath("Config/default.yaml")])
        #expect(valid.status == 0, "\(valid.standardError)")
    }

    @Test func outputsThatCannotBeCreatedExit73() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        let folder = tool.path("missing")
        try await expect(["export", "--store", store, "--output", folder + "/out.csv"], status: 73,
                   saying: "the folder \(folder) does not exist", in: tool)
        try await expect(["report", "--store", store, "--output", folder + "/report.txt"], status: 73,
                   saying: "the folder \(folder) does not exist", in: tool)
        try await expect(["report", "--store", store, "--output", tool.directory.path], status: 73, saying: "is a folder", in: tool)
        try await expect(["export", "--store", store, "--output", store], status: 73, saying: "is the store", in: tool)
        #expect(!FileManager.default.fileExists(atPath: folder))
    }

    @Test func theStatusesAreListedInTheReadmeAndTheHelp() async throws {
        let readme = try String(contentsOfFile: ToolRunner.repositoryPath("README.md"), encoding: .utf8)
        let help = try await ToolRunner().run(["--help"]).standardOutput
        for (status, meaning) in [(64, "usage"), (65, "data"), (66, "input"), (73, "output"), (74, "I/O"), (77, "no permission")] {
            let inReadme = readme.contains("| \(status) |"), inHelp = help.contains("\(status)")
            #expect(inReadme, "README lacks exit status \(status) (\(meaning))")
            #expect(inHelp, "--help lacks exit status \(status) (\(meaning))")
        }
    }
}
