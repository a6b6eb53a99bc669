import Foundation
import StillpointPostgresTestSupport
import Testing

/// Text from outside (a file's name, an export's sources, a store's name) with control characters and
/// line breaks in it, through every output that shows it: `imports`, `import`, `sessions` (plain and live), the
/// reports in every format, and error messages. None may drive the terminal or forge a line of the tool's own.
@Suite("Text from outside shows escaped", .serialized)
struct HostileTextTests {
    /// The stores each case runs on: a SQLite file, and a PostgreSQL database when the tests have a server.
    static let stores = ["sqlite"] + (PostgresTestServer.isWanted ? ["postgresql"] : [])

    /// A file name that would retitle the terminal, clear the screen, turn it red (C1's CSI) and forge a line of `imports`.
    static let hostileName = "log\u{1B}]0;owned\u{07}\u{1B}[2J\u{9B}31m\nrun 99  Jan 1, 2026  forged.csv"
    /// The same name as the tool shows it.
    static let shownName = #"log\u{1B}]0;owned\u{7}\u{1B}[2J\u{9B}31m\nrun 99  Jan 1, 2026  forged.csv"#

    static let asOf = "2025-01-01T00:00:00Z"

    /// A store whose file name (on SQLite) would also clear the screen and forge a line wherever it is named.
    func store(_ kind: String, in tool: ToolRunner) throws -> String {
        kind == "sqlite" ? tool.path("practice\u{1B}[2J\nrun 98.sqlite") : try PostgresTestServer.shared().makeDatabase("hostile")
    }

    /// The control characters in `text` other than its line ends (LF, or CRLF where `crlf`).
    static func controls(in text: String, crlf: Bool = false) -> [String] {
        let lines = crlf ? text.replacingOccurrences(of: "\r\n", with: "\n") : text
        return lines.unicodeScalars.filter { scalar in
            scalar != "\n" && (scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value))
        }.map { String(format: "U+%04X", $0.value) }
    }

    /// The lines of `text` that start (after their indentation) with `prefix` and hold `content`.
    static func lines(of text: String, startingWith prefix: String, holding content: String = "") -> [String] {
        text.components(separatedBy: "\n").filter { line in
            let start = line.drop { $0 == " " || $0 == "|" || $0 == "\"" }
            return start.hasPrefix(prefix) && (content.isEmpty || line.contains(content))
        }
    }

    /// Checks that `result` printed no control character and no forged `run 99` line, on either stream.
    func expectNoControlOrForgedLine(_ result: ToolRunner.Result, _ what: String, crlf: Bool = false,
                                     sourceLocation: SourceLocation = #_sourceLocation) {
        for (stream, text) in [("stdout", result.standardOutput), ("stderr", result.standardError)] {
            #expect(Self.controls(in: text, crlf: crlf).isEmpty, "\(what) \(stream): \(Self.controls(in: text, crlf: crlf))",
                    sourceLocation: sourceLocation)
            #expect(Self.lines(of: text, startingWith: "run 99").isEmpty, "\(what) \(stream) forged a line:\n\(text)",
                    sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: stores)
    func aFileNameWithControlCharactersShowsEscapedInImportsAndEveryReport(store kind: String) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try store(kind, in: tool)
        let file = tool.path(Self.hostileName)
        try Data("start,duration\n2024-03-05T07:00:00Z,1200\n2024-03-06T07:00:00Z,900\n".utf8)
            .write(to: URL(fileURLWithPath: file))

        let imported = try await tool.run(["import", file, "--format", "csv", "--store", store])
        #expect(imported.status == 0, "\(imported.standardError)")
        expectNoControlOrForgedLine(imported, "import")
        #expect(imported.standardOutput.contains("imported \(Self.shownName) as run 1"), "\(imported.standardOutput)")

        let imports = try await tool.run(["imports", "--store", store])
        #expect(imports.status == 0, "\(imports.standardError)")
        expectNoControlOrForgedLine(imports, "imports")
        #expect(Self.lines(of: imports.standardOutput, startingWith: "run ").count == 1, "\(imports.standardOutput)")
        #expect(imports.standardOutput.contains(Self.shownName), "\(imports.standardOutput)")

        // Messages that name the store, and --verbose lines.
        let check = try await tool.run(["check", "--store", store, "--verbose"])
        #expect(check.status == 0, "\(check.standardError)")
        expectNoControlOrForgedLine(check, "check")
        #expect(Self.lines(of: check.standardOutput + check.standardError, startingWith: "run 98").isEmpty,
                "\(check.standardOutput)\(check.standardError)")
        if kind == "sqlite" {
            #expect(check.standardOutput.contains(#"practice\u{1B}[2J\nrun 98.sqlite: 2 sessions"#), "\(check.standardOutput)")
            #expect(check.standardError.contains(#"practice\u{1B}[2J\nrun 98.sqlite"#), "\(check.standardError)")
        }

        // by_import names the file in each report; Markdown escapes the escapes' backslashes and brackets too.
        let shown = [
            "text": Self.shownName,
            "markdown": #"log\\u{1B}\]0;owned\\u{7}\\u{1B}\[2J\\u{9B}31m\\nrun 99  Jan 1, 2026  forged.csv"#,
            "csv": Self.shownName,
            "html": Self.shownName,
            "json": #"log\u001b]0;owned\u0007\u001b[2J\u009b31m\nrun 99  Jan 1, 2026  forged.csv"#,
        ]
        for (format, name) in shown {
            let report = try await tool.run(["report", "--store", store, "--format", format, "--as-of", Self.asOf])
            #expect(report.status == 0, "\(format): \(report.standardError)")
            expectNoControlOrForgedLine(report, format, crlf: format == "csv")
            #expect(report.standardOutput.contains(name), "\(format): \(report.standardOutput)")
        }
    }

    /// An Apple Health `sourceName` with `&#10;` and ESC: the reports' by_kind and `sessions` show it on its own
    /// line, escaped. (Kinds are made identifiers at import, `yoga_2_j_run_99`, so a source is the export's field
    /// that reaches the reports as written.)
    @Test(arguments: stores)
    func exportFieldsWithControlCharactersShowEscapedInReportsAndSessions(store kind: String) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try store(kind, in: tool)
        let health = tool.path("export.xml")
        try Data((ImportSafetyTests.appleHealthHeader
            + " <Record type=\"HKCategoryTypeIdentifierMindfulSession\" sourceName=\"Watch&#10;Sessions                 999,999\u{1B}[31m\" "
            + "startDate=\"2024-03-05 07:00:00 +0000\" endDate=\"2024-03-05 07:20:00 +0000\"/>\n</HealthData>\n").utf8)
            .write(to: URL(fileURLWithPath: health))
        let healthImport = try await tool.run(["import", health, "--format", "apple-health", "--store", store])
        #expect(healthImport.status == 0, "\(healthImport.standardError)")

        let text = try await tool.run(["report", "--store", store, "--format", "text", "--as-of", Self.asOf])
        #expect(text.status == 0, "\(text.standardError)")
        expectNoControlOrForgedLine(text, "text")
        #expect(Self.lines(of: text.standardOutput, startingWith: "Sessions", holding: "999,999").isEmpty, "\(text.standardOutput)")
        #expect(text.standardOutput.contains(#"Watch\nSessions                 999,999\u{1B}[31m"#), "\(text.standardOutput)")
        for format in ["markdown", "csv", "html"] {
            let report = try await tool.run(["report", "--store", store, "--format", format, "--as-of", Self.asOf])
            #expect(report.status == 0, "\(format): \(report.standardError)")
            expectNoControlOrForgedLine(report, format, crlf: format == "csv")
            #expect(Self.lines(of: report.standardOutput, startingWith: "Sessions", holding: "999,999").isEmpty,
                    "\(format): \(report.standardOutput)")
        }

        for arguments in [["sessions"], ["sessions", "--live", "--snapshots", "1"]] {
            let sessions = try await tool.run(arguments + ["--store", store])
            #expect(sessions.status == 0, "\(arguments): \(sessions.standardError)")
            expectNoControlOrForgedLine(sessions, arguments.joined(separator: " "))
            #expect(sessions.standardOutput.contains(#"Watch\nSessions                 999,999\u{1B}[31m"#), "\(sessions.standardOutput)")
        }
    }

    /// Messages that name a file or a store show its name escaped, on one line.
    @Test(arguments: stores)
    func errorMessagesShowNamesEscapedOnOneLine(store kind: String) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let missing = try await tool.run(["import", tool.path(Self.hostileName), "--format", "csv", "--store", try store(kind, in: tool)])
        #expect(missing.status == 66, "\(missing.standardError)")
        expectNoControlOrForgedLine(missing, "import of a missing file")
        #expect(missing.standardError.hasPrefix("Error: ") && missing.standardError.filter { $0 == "\n" }.count == 1,
                "\(missing.standardError)")
        #expect(missing.standardError.contains(Self.shownName), "\(missing.standardError)")

        // A store that is not there, named with the same bytes (as a file, or as a PostgreSQL database).
        let store = kind == "sqlite"
            ? tool.path(Self.hostileName + ".sqlite")
            : try PostgresTestServer.shared().uri(database: "no%1B%5B2J%0Arun%2099")
        let report = try await tool.run(["report", "--store", store])
        #expect(report.status == 66, "\(report.standardError)")
        expectNoControlOrForgedLine(report, "report of a missing store")
        #expect(report.standardError.filter { $0 == "\n" }.count == 1, "\(report.standardError)")
        if kind == "sqlite" {
            #expect(report.standardError.contains(Self.shownName + ".sqlite"), "\(report.standardError)")
        }
    }

    /// `validate` shows a manifest's path and the keys and values its problems quote escaped: only its own lines
    /// (the manifest's line and the caret, the list of modules) are lines.
    @Test func validateShowsTheManifestsTextEscaped() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let forged = "\nrun 99  Jan 1, 2026  forged.csv"
        let shownForged = #"\nrun 99  Jan 1, 2026  forged.csv"#
        let broken = tool.path("broken" + forged + ".yaml")
        try "version: 1\nstatistics:\n  - id: \"total_time\\nrun 99  forged\"\n  - id: session_count\n    name: \"\\nrun 99 x\"\n    bogus: 1\n"
            .write(toFile: broken, atomically: true, encoding: .utf8)
        let problems = try await tool.run(["validate", broken])
        #expect(problems.status == 65, "\(problems.standardError)")
        expectNoControlOrForgedLine(problems, "validate of a manifest with problems")
        #expect(problems.standardError.contains("broken" + shownForged + ".yaml:"), "\(problems.standardError)")
        #expect(problems.standardError.contains(#"total_time\nrun 99  forged"#), "\(problems.standardError)")

        let valid = tool.path("valid" + forged + ".yaml")
        // Entry names are snake_case, so only the path can carry a line break here.
        try "version: 1\nstatistics:\n  - id: session_count\n".write(toFile: valid, atomically: true, encoding: .utf8)
        let listed = try await tool.run(["validate", valid])
        #expect(listed.status == 0, "\(listed.standardError)")
        expectNoControlOrForgedLine(listed, "validate of a valid manifest")
        #expect(listed.standardOutput.contains("valid" + shownForged + ".yaml is a valid manifest"), "\(listed.standardOutput)")
    }

    /// A value the argument parser refuses (`--format`, `--as-of`, `--ending-at`, `--time-zone`, `--duration-unit`)
    /// is quoted escaped, in one line, with status 64.
    @Test func valuesTheParserRefusesAreQuotedEscapedOnOneLine() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let value = "x\u{1B}[2J\nrun 99  Jan 1, 2026  forged.csv"
        let csv = try SessionsCommandTests.writeSessions(["2025-06-01T06:00:00Z,1200"], in: tool)
        let store = tool.path("s.sqlite")
        for arguments in [["report", "--store", store, "--format", value], ["report", "--store", store, "--as-of", value],
                          ["demo", "--store", store, "--ending-at", value],
                          ["import", csv, "--format", "csv", "--store", store, "--time-zone", value],
                          ["import", csv, "--format", "csv", "--store", store, "--duration-unit", value],
                          ["sessions", "--store", store, "--limit", value]] {
            let result = try await tool.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.standardError)")
            expectNoControlOrForgedLine(result, arguments.joined(separator: " "))
            #expect(result.standardError.hasPrefix("Error: ") && result.standardError.filter { $0 == "\n" }.count == 1,
                    "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains(#"\nrun 99"#), "\(arguments): \(result.standardError)")
        }
    }
}
