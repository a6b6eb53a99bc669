import Foundation
import StillpointPostgresTestSupport
import Testing

/// End to end: issue 26's forms in `--where` (arithmetic, functions, radix literals, SELF, MATCHES) select the
/// same sessions as the forms they spell differently, in `sessions` and `export`, on SQLite and PostgreSQL; the
/// ones a store can't answer exactly are refused with the reason.
@Suite("stillpoint --where with the whole predicate language", .serialized)
struct WherePredicateFormsTests {
    static let equivalents = [
        ("duration / 60 >= 20", "duration >= 1200"),
        ("abs(duration - 1200) < 0.5", "duration > 1199.5 AND duration < 1200.5"),
        ("SELF.duration > 0x4B0 AND -duration > -0b11100001000", "duration > 1200 AND duration < 1800"),
        ("lowercase(kind) == 'yoga' AND length:(kind) == 4", "kind ==[c] 'yoga'"),
        ("floor(duration / 60) * 60 == duration", "trunc(duration / 60) == duration / 60"),
        ("start < now()", "TRUEPREDICATE"),
    ]

    /// `sessions` and `export` print the same for `form` as for `equivalent`, and select some sessions but not all.
    func expectSameSessions(_ store: String, _ form: String, _ equivalent: String, in tool: ToolRunner) async throws {
        let listed = try await tool.run(["sessions", "--store", store, "--limit", "10000", "--where", form])
        let expected = try await tool.run(["sessions", "--store", store, "--limit", "10000", "--where", equivalent])
        #expect(listed.status == 0, "\(form): \(listed.standardError)")
        #expect(listed.standardOutput == expected.standardOutput, "\(form)")
        #expect(listed.standardOutput.split(separator: "\n").count > 2, "\(form) selects sessions")
        let (formFile, equivalentFile) = (tool.path("form.csv"), tool.path("equivalent.csv"))
        let exported = try await tool.run(["export", "--store", store, "--where", form, "--output", formFile])
        _ = try await tool.run(["export", "--store", store, "--where", equivalent, "--output", equivalentFile])
        #expect(exported.status == 0, "\(form): \(exported.standardError)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: formFile)) == Data(contentsOf: URL(fileURLWithPath: equivalentFile)), "\(form)")
    }

    @Test(.timeLimit(.minutes(5))) func theNewFormsSelectTheSameSessionsOnSQLite() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await ReportCommandTests.makeStore(tool)
        for (form, equivalent) in Self.equivalents + [("kind MATCHES[c] 'YO.*'", "kind BEGINSWITH[c] 'yo'")] {
            try await expectSameSessions(store, form, equivalent, in: tool)
        }
        let unfilled = try await tool.run(["sessions", "--store", store, "--where", "kind == $KIND"])
        #expect(unfilled.status == 64, "\(unfilled.standardError)")
        #expect(unfilled.standardError.contains("--where") && unfilled.standardError.contains("$KIND has no value"), "\(unfilled.standardError)")
    }

    @Test(.timeLimit(.minutes(5)), .enabled(if: PostgresTestServer.isWanted))
    func theNewFormsSelectTheSameSessionsOnPostgreSQL() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let uri = try PostgresTestServer.shared().makeDatabase("where")
        let demo = try await tool.run(["demo", "--sessions", "1500", "--years", "3", "--ending-at", "2025-05-31T20:00:00Z", "--store", uri])
        #expect(demo.status == 0, "\(demo.standardError)")
        for (form, equivalent) in Self.equivalents + [("kind MATCHES[c] 'YO.*'", "kind BEGINSWITH[c] 'yo'")] {
            try await expectSameSessions(uri, form, equivalent, in: tool)
        }
        // A manifest's where: reads the new forms too, and the report is the one SQLite gives.
        let manifest = tool.path("custom.yaml")
        try """
            version: 1
            time_zone: UTC
            custom_statistics:
              long_sittings:
                name: Long sittings
                function: count
                where: "duration / 60 >= 30 AND lowercase(kind) == 'meditation'"
            statistics: [long_sittings]
            """.write(toFile: manifest, atomically: true, encoding: .utf8)
        let file = try await ReportCommandTests.makeStore(tool)
        let onServer = try await tool.run(["report", "--config", manifest, "--store", uri, "--format", "json", "--as-of", ReportCommandTests.asOf])
        let onFile = try await tool.run(["report", "--config", manifest, "--store", file, "--format", "json", "--as-of", ReportCommandTests.asOf])
        #expect(onServer.status == 0 && onFile.status == 0, "\(onServer.standardError) \(onFile.standardError)")
        #expect(onServer.standardOutput == onFile.standardOutput)
        #expect(onServer.standardOutput.contains("\"id\": \"long_sittings\"") && onServer.standardOutput.contains("\"status\": \"ok\""),
                "\(onServer.standardOutput)")
        // A report reads each session once and answers custom statistics in memory, so MATCHES in a manifest
        // works on PostgreSQL too, and agrees with SQLite.
        try String(contentsOfFile: manifest, encoding: .utf8).replacingOccurrences(of: "duration / 60 >= 30 AND lowercase(kind) == 'meditation'", with: "kind MATCHES 'med.*'")
            .write(toFile: manifest, atomically: true, encoding: .utf8)
        let matchingOnServer = try await tool.run(["report", "--config", manifest, "--store", uri, "--format", "json", "--as-of", ReportCommandTests.asOf])
        let matchingOnFile = try await tool.run(["report", "--config", manifest, "--store", file, "--format", "json", "--as-of", ReportCommandTests.asOf])
        #expect(matchingOnServer.status == 0, "\(matchingOnServer.standardError)")
        #expect(matchingOnServer.standardOutput == matchingOnFile.standardOutput)
        #expect(matchingOnServer.standardOutput != onServer.standardOutput, "the predicate changed the count")

        // A pattern PostgreSQL can't mean as ICU does is refused before the store is read, as a mistake on the
        // command line, by every reading command.
        for command in [["sessions"], ["export", "--output", tool.path("refused.csv")]] {
            let matches = try await tool.run(command + ["--store", uri, "--where", "kind MATCHES '\\\\w+'"])
            #expect(matches.status == 64, "\(matches.standardError)")
            #expect(matches.standardError.contains("--where \"kind MATCHES '\\\\w+'\": MATCHES '\\w+' can't run on PostgreSQL: \\w is ICU's Unicode word characters"),
                    "\(matches.standardError)")
            #expect(!FileManager.default.fileExists(atPath: tool.path("refused.csv")))
        }
    }
}
