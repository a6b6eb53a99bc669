import Foundation
import StillpointPostgresTestSupport
import Testing

/// A password in a store's name never reaches standard output or standard error, whatever the form of the name
/// (a `?`, `/`, `@` or `%`-escape in a URI's password, `?password=`, `?PASSWORD=`, a `PostgreSQL://` scheme,
/// libpq's `keyword=value` pairs) and whatever prints it: every command that opens a store, `--verbose`'s log,
/// `validate` and a report quoting a manifest's `store:` line. The test server trusts every local connection, so
/// that the names that libpq reads as they are meant connect, with the password unused.
@Suite("passwords in a store's name", .serialized, .enabled(if: PostgresTestServer.isWanted))
struct StorePasswordTests {
    /// The pieces of the password each form holds: none may be printed, whole or in part.
    static let pieces = ["Hunter2", "Secret"]

    /// A name of a database on the test server, and the status every command ends with: 0 for a name libpq reads
    /// as it is meant, 64 for one it would misread or refuse (which must not be read as a file either).
    struct Form: CustomTestStringConvertible, Sendable {
        let testDescription: String
        let status: Int32
        let name: @Sendable (_ socket: String, _ database: String) -> String
    }

    static let forms: [Form] = [
        Form(testDescription: "a ? in the URI's password", status: 0) { socket, database in
            "postgresql://postgres:Hunter2?Secret@/\(database)?host=\(socket)"
        },
        Form(testDescription: "%-escapes in the URI's password", status: 0) { socket, database in
            "postgresql://postgres:Hunter2%3FSecret%2F%40@/\(database)?host=\(socket)"
        },
        Form(testDescription: "an upper-case scheme", status: 0) { socket, database in
            "PostgreSQL://postgres:Hunter2?Secret@/\(database)?host=\(socket)"
        },
        Form(testDescription: "?password=", status: 0) { socket, database in
            "postgresql:///\(database)?host=\(socket)&user=postgres&password=Hunter2%3FSecret"
        },
        Form(testDescription: "keyword=value pairs", status: 0) { socket, database in
            "host=\(socket) dbname=\(database) user=postgres password='Hunter2 Secret'"
        },
        Form(testDescription: "keyword=value pairs, unquoted", status: 0) { socket, database in
            "host=\(socket) password=Hunter2?Secret dbname=\(database) user=postgres"
        },
        Form(testDescription: "a / in the URI's password", status: 64) { socket, database in
            "postgresql://postgres:Hunter2/Secret@/\(database)?host=\(socket)"
        },
        Form(testDescription: "an @ in the URI's password", status: 64) { socket, database in
            "postgresql://postgres:Hunter2@Secret@/\(database)?host=\(socket)"
        },
        Form(testDescription: "?PASSWORD=", status: 64) { socket, database in
            "postgresql:///\(database)?host=\(socket)&user=postgres&PASSWORD=Hunter2Secret"
        },
        Form(testDescription: "keyword=value pairs libpq cannot read", status: 64) { socket, database in
            "host=\(socket) dbname=\(database) password=Hunter2 Secret"
        },
        Form(testDescription: "sslpassword= in keyword=value pairs", status: 0) { socket, database in
            "host=\(socket) dbname=\(database) user=postgres sslpassword=Hunter2Secret"
        },
        Form(testDescription: "a percent-encoded password key", status: 0) { socket, database in
            "postgresql:///\(database)?host=\(socket)&user=postgres&pass%77ord=Hunter2Secret"
        },
        Form(testDescription: "a percent-encoded = after password", status: 64) { socket, database in
            "postgresql:///\(database)?host=\(socket)&user=postgres&password%3DHunter2Secret"
        },
        Form(testDescription: "a password whose @host was forgotten", status: 64) { socket, database in
            "postgresql://postgres:Hunter2Secret/\(database)?host=\(socket)"
        },
    ]

    @Test(arguments: forms)
    func noCommandPrintsThePassword(form: Form) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let server = try PostgresTestServer.shared()
        let uri = try server.makeDatabase("secret")
        let database = try #require(uri.split(separator: "?").first?.split(separator: "/").last.map(String.init))
        let store = form.name(server.directory.path, database)
        let csv = try SessionsCommandTests.writeSessions(["2025-05-30T06:00:00Z,1200", "2025-05-31T06:00:00Z,600"], in: tool)
        let before = try FileManager.default.contentsOfDirectory(atPath: tool.directory.path)

        // import makes the store; then every command that opens one, with and without --verbose.
        let commands = [["import", csv, "--format", "csv"], ["check"], ["report"], ["report", "--format", "json"],
                        ["sessions"], ["imports"], ["export", "--format", "csv", "--output", "-"]]
        for command in commands {
            for verbose in [[], ["--verbose"]] {
                let result = try await tool.run(command + ["--store", store] + verbose)
                expectNoPassword(in: result, of: form, running: command + verbose)
                #expect(result.status == form.status, "\(command + verbose): \(result.standardError)")
            }
        }
        if form.status == 0 {
            let sessions = try await tool.run(["sessions", "--store", store])
            #expect(sessions.standardOutput.contains("2025-05-31 06:00"), "\(sessions.standardOutput)")
        }
        // The name never became a file (nor a folder) beside the tool.
        let after = try FileManager.default.contentsOfDirectory(atPath: tool.directory.path)
        #expect(Set(after).subtracting(before).subtracting(["home"]).isEmpty, "\(after)")

        // A manifest's store: line, used by a report, and quoted by validate and report in an error on that line.
        let manifest = tool.path("report.yaml")
        try "store: \"\(Self.yamlEscaped(store))\"\nstatistics: [session_count]\n".write(toFile: manifest, atomically: true, encoding: .utf8)
        for verbose in [[], ["--verbose"]] {
            let report = try await tool.run(["report", "--config", manifest] + verbose)
            expectNoPassword(in: report, of: form, running: ["report", "--config"] + verbose)
            #expect(report.status == form.status, "\(report.standardError)")
        }
        let broken = [
            "store: \"\(Self.yamlEscaped(store))\n",                                 // a quote never closed
            "store: [\"\(Self.yamlEscaped(store))\"]\nstatistics: [session_count]\n", // not a scalar
            "store: \"\(Self.yamlEscaped(store))\" extra\n",                          // text after the scalar
        ]
        for text in broken {
            try text.write(toFile: manifest, atomically: true, encoding: .utf8)
            let validated = try await tool.run(["validate", manifest])
            expectNoPassword(in: validated, of: form, running: ["validate", text])
            #expect(validated.status == 65, "\(text): \(validated.standardError)")
            #expect(validated.standardError.contains("report.yaml:1:"), "\(validated.standardError)")
            let reported = try await tool.run(["report", "--config", manifest, "--verbose"])
            expectNoPassword(in: reported, of: form, running: ["report", "--config", text])
            #expect(reported.status == 65, "\(text): \(reported.standardError)")
        }
    }

    /// A server that cannot be reached is named with its host and port, without the password.
    @Test(arguments: ["postgresql://postgres:Hunter2?Secret@127.0.0.1:1/practice",
                      "PostgreSQL://postgres:Hunter2%3FSecret@127.0.0.1:1/practice",
                      "host=127.0.0.1 port=1 dbname=practice password='Hunter2 Secret'"])
    func anUnreachableServerIsNamedWithoutThePassword(store: String) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        for command in [["check"], ["report"], ["sessions"], ["imports"]] {
            let result = try await tool.run(command + ["--store", store, "--verbose"])
            #expect(result.status == 69, "\(command): \(result.standardError)")
            #expect(result.standardError.contains("127.0.0.1"), "\(result.standardError)")
            for piece in Self.pieces {
                #expect(!result.standardError.contains(piece) && !result.standardOutput.contains(piece), "\(command): \(result.standardError)")
            }
        }
    }

    /// A SQLite file whose name holds `=` is still a file when written as a path (`./`), and one that reads as
    /// libpq's pairs but that libpq cannot read is refused as a mistake, never made into a file.
    @Test func aFileWhoseNameHoldsAnEqualsSignIsWrittenAsAPath() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let csv = try SessionsCommandTests.writeSessions(["2025-05-31T06:00:00Z,600"], in: tool)
        let refused = try await tool.run(["import", csv, "--format", "csv", "--store", "notes=practice.sqlite"])
        #expect(refused.status == 64, "\(refused.standardError)")
        #expect(!FileManager.default.fileExists(atPath: tool.path("notes=practice.sqlite")))
        let file = try await tool.run(["import", csv, "--format", "csv", "--store", "./notes=practice.sqlite"])
        #expect(file.status == 0, "\(file.standardError)")
        #expect(FileManager.default.fileExists(atPath: tool.path("notes=practice.sqlite")))
        let check = try await tool.run(["check", "--store", "./notes=practice.sqlite"])
        #expect(check.status == 0 && check.standardOutput.contains("notes=practice.sqlite"), "\(check.standardError)")
    }

    private func expectNoPassword(in result: ToolRunner.Result, of form: Form, running command: [String],
                                  sourceLocation: SourceLocation = #_sourceLocation) {
        for piece in Self.pieces {
            #expect(!result.standardOutput.contains(piece), "\(form.testDescription), \(command): \(result.standardOutput)",
                    sourceLocation: sourceLocation)
            #expect(!result.standardError.contains(piece), "\(form.testDescription), \(command): \(result.standardError)",
                    sourceLocation: sourceLocation)
        }
    }

    /// `text` inside a YAML double-quoted scalar.
    private static func yamlEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }
}
