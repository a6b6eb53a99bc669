import Foundation
import Testing

/// `stillpoint import FILE --format csv --practitioner-column COLUMN`: a bulk load of many practitioners, from a file
/// or standard input, with `--strict`; and the options it does not go with.
@Suite("import --practitioner-column")
struct ImportPractitionerColumnTests {
    static let bulk = """
        user,start,duration
        alice,2024-03-01T07:00:00Z,600
        bob,2024-03-01T07:00:00Z,600
        alice,2024-03-02T07:00:00Z,900
        carol,2024-03-03T07:00:00Z,300

        """

    @Test func loadsEachPractitionersSessionsWithARunEach() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("app.sqlite")
        let csv = tool.path("users.csv")
        try (Self.bulk + ",2024-03-04T07:00:00Z,600\n").write(toFile: csv, atomically: true, encoding: .utf8)
        let imported = try await tool.run(["import", csv, "--format", "csv", "--practitioner-column", "user", "--store", store])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("imported users.csv for 3 practitioners as runs 1-3: 4 new, 0 updated, 0 already there, 1 skipped"),
                "\(imported.standardOutput)")
        #expect(imported.standardError.contains("skipped line 6: practitioner column 'user' is empty"), "\(imported.standardError)")

        let listed = try await tool.run(["practitioners", "--store", store])
        #expect(listed.status == 0, "\(listed.standardError)")
        let lines = listed.standardOutput.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).prefix(2).joined(separator: " ") }
        #expect(lines == ["alice 2", "bob 1", "carol 1"], "\(listed.standardOutput)")
        let runs = try await tool.run(["imports", "--store", store, "--practitioner", "bob"])
        #expect(runs.standardOutput.split(separator: "\n").count == 1, "\(runs.standardOutput)")

        // The same file again replaces each practitioner's run with their new one.
        let again = try await tool.run(["import", csv, "--format", "csv", "--practitioner-column", "user", "--store", store])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.standardOutput.contains("0 new, 0 updated, 4 already there"), "\(again.standardOutput)")
        #expect(again.standardError.contains("this file was imported before (run 1"), "\(again.standardError)")
    }

    @Test func readsStandardInputAndRefusesABadCellUnderStrict() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("app.sqlite")
        let arguments = ["import", "-", "--format", "csv", "--practitioner-column", "user", "--store", store]
        let refused = try await tool.run(arguments + ["--strict"], input: .pipe(Data((Self.bulk + ",2024-03-04T07:00:00Z,600\n").utf8)))
        #expect(refused.status == 65, "\(refused.standardError)")
        #expect(refused.standardError.contains("would skip line 6: practitioner column 'user' is empty"), "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: store))

        let imported = try await tool.run(arguments + ["--strict"], input: .pipe(Data(Self.bulk.utf8)))
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("imported standard input for 3 practitioners"), "\(imported.standardOutput)")
        let report = try await tool.run(["report", "--store", store, "--practitioner", "alice", "--format", "json"])
        #expect(report.status == 0, "\(report.standardError)")
    }

    @Test func readsEachRowInItsPractitionersHomeTimeZone() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = tool.path("app.sqlite")
        let added = try await tool.run(["practitioners", "add", "alice", "--time-zone", "Europe/Berlin", "--store", store])
        #expect(added.status == 0, "\(added.standardError)")
        let csv = tool.path("users.csv")
        try "user,start,duration\nalice,2024-03-01T07:00:00,600\nbob,2024-03-01T07:00:00,600\n".write(toFile: csv, atomically: true, encoding: .utf8)
        let imported = try await tool.run(["import", csv, "--format", "csv", "--practitioner-column", "user", "--store", store])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardError.contains("times without a zone were read in their practitioner's home time zone (alice: Europe/Berlin)"),
                "\(imported.standardError)")
        for (practitioner, zone) in [("alice", "Europe/Berlin"), ("bob", "Etc/UTC")] {
            let exported = try await tool.run(["export", "--store", store, "--practitioner", practitioner, "--format", "csv",
                                         "--columns", "timeZone", "--output", "-"])
            #expect(exported.status == 0, "\(exported.standardError)")
            #expect(exported.standardOutput.split(whereSeparator: \.isNewline).dropFirst().map(String.init) == [zone], "\(exported.standardOutput)")
        }
    }

    @Test(arguments: [
        (["--practitioner", "alice"], "--practitioner and --practitioner-column do not go together"),
        (["--format", "insight-timer"], "--practitioner-column reads a csv file; use it with --format csv"),
    ])
    func isAUsageErrorWith(_ extra: [String], _ message: String) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let csv = tool.path("users.csv")
        try Self.bulk.write(toFile: csv, atomically: true, encoding: .utf8)
        let format = extra.contains("--format") ? [] : ["--format", "csv"]
        let result = try await tool.run(["import", csv, "--practitioner-column", "user", "--store", tool.path("app.sqlite")] + format + extra)
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(!FileManager.default.fileExists(atPath: tool.path("app.sqlite")))
    }
}
