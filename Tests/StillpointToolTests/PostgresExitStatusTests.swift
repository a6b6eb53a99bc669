import Foundation
import StillpointPostgres
import StillpointPostgresTestSupport
import Testing

/// The exit statuses of PostgreSQL's faults, on a throwaway server with real roles: a URI whose port or
/// parameter is wrong is a mistake on the command line (64), a role without a right the store needs is refused
/// with which right and what to grant (77), and a `--where` that compares constants of different types is
/// refused on both stores alike (64), not answered by one and failed by the other.
@Suite("exit statuses on PostgreSQL", .serialized, .enabled(if: PostgresTestServer.isWanted))
struct PostgresExitStatusTests {
    private static let commands = [["check"], ["report"], ["sessions"], ["imports"], ["import", "SESSIONS", "--format", "csv"]]

    private func run(_ command: [String], store: String, in tool: ToolRunner) async throws -> ToolRunner.Result {
        let csv = try SessionsCommandTests.writeSessions(["2025-05-31T06:00:00Z,600"], in: tool)
        return try await tool.run(command.map { $0 == "SESSIONS" ? csv : $0 } + ["--store", store])
    }

    @Test func aPortThatIsNotANumberOrAParameterLibpqRefusesIsAMistakeOnTheCommandLine() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let uri = try PostgresTestServer.shared().makeDatabase("usage")
        let cases = [
            ("postgresql://127.0.0.1:54x2/practice", "port is not a number"),
            ("postgresql://me:pw@127.0.0.1:99999/practice", "port is not a number from 1 to 65535"),
            ("host=127.0.0.1 port=abc dbname=practice", "port is not a number"),
            (uri + "&sslmode=bogus", "invalid sslmode value"),
            (uri + "&target_session_attrs=bogus", "invalid target_session_attrs value"),
        ]
        for (store, reason) in cases {
            for command in Self.commands {
                let result = try await run(command, store: store, in: tool)
                #expect(result.status == 64, "\(store), \(command): \(result.standardError)")
                #expect(result.standardError.contains(reason), "\(store), \(command): \(result.standardError)")
                #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
            }
        }
    }

    /// A role that may read the store but not write it: every reading command works, and a write is refused
    /// before it starts, saying which rights are missing and the grant that gives them; after that grant, it works.
    @Test func aReadOnlyRoleIsRefusedWritesWithTheRightsItLacks() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let server = try PostgresTestServer.shared()
        let uri = try server.makeDatabase("rights")
        let demo = try await tool.run(["demo", "--sessions", "100", "--years", "1", "--ending-at", "2025-05-31T20:00:00Z", "--store", uri])
        #expect(demo.status == 0, "\(demo.standardError)")
        let role = Self.newRole()
        let admin = try PostgresConnection(uri: uri)
        try admin.execute("CREATE ROLE \(role) LOGIN")
        try admin.execute("GRANT SELECT ON ALL TABLES IN SCHEMA public TO \(role)")
        let reader = Self.uri(uri, role: role)

        for command in [["check"], ["report"], ["sessions"], ["imports"]] {
            let result = try await run(command, store: reader, in: tool)
            #expect(result.status == 0, "\(command): \(result.standardError)")
        }
        for command in [["import", "SESSIONS", "--format", "csv"], ["demo"], ["imports", "remove", "1"]] {
            let result = try await run(command, store: reader, in: tool)
            #expect(result.status == 77, "\(command): \(result.standardError)")
            #expect(result.standardError.contains("the role \(role) may not INSERT, UPDATE, DELETE the store's tables in the schema public"),
                    "\(command): \(result.standardError)")
            #expect(result.standardError.contains("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA \"public\" TO \"\(role)\""),
                    "\(result.standardError)")
        }
        // The grants the message gives are enough.
        try admin.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA \"public\" TO \"\(role)\"")
        try admin.execute("GRANT USAGE ON ALL SEQUENCES IN SCHEMA \"public\" TO \"\(role)\"")
        let imported = try await run(["import", "SESSIONS", "--format", "csv"], store: reader, in: tool)
        #expect(imported.status == 0, "\(imported.standardError)")
    }

    /// A role that may not create tables in the schema cannot make a store there: 77 and the grant, not an I/O error.
    @Test func aRoleWithoutCreateOnTheSchemaIsRefusedMakingAStore() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let uri = try PostgresTestServer.shared().makeDatabase("create")
        let role = Self.newRole()
        let admin = try PostgresConnection(uri: uri)
        try admin.execute("CREATE ROLE \(role) LOGIN")
        // PostgreSQL 15 grants no one CREATE on public; say so for servers of other defaults.
        try admin.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
        let maker = Self.uri(uri, role: role)
        for command in [["import", "SESSIONS", "--format", "csv"], ["demo"]] {
            let result = try await run(command, store: maker, in: tool)
            #expect(result.status == 77, "\(command): \(result.standardError)")
            #expect(result.standardError.contains("the role \(role) may not create the store's tables in the schema public"),
                    "\(result.standardError)")
            #expect(result.standardError.contains("GRANT CREATE ON SCHEMA \"public\" TO \"\(role)\""), "\(result.standardError)")
        }
        try admin.execute("GRANT CREATE ON SCHEMA \"public\" TO \"\(role)\"")
        let imported = try await run(["import", "SESSIONS", "--format", "csv"], store: maker, in: tool)
        #expect(imported.status == 0, "\(imported.standardError)")
    }

    /// A search_path that names no schema, or only one the role may not use: 77 for every command, not "no store"
    /// (66) nor an I/O error (74).
    @Test func aSearchPathWithNoSchemaTheRoleMayUseIsRefused() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let uri = try PostgresTestServer.shared().makeDatabase("path")
        let demo = try await tool.run(["demo", "--sessions", "100", "--years", "1", "--ending-at", "2025-05-31T20:00:00Z", "--store", uri])
        #expect(demo.status == 0, "\(demo.standardError)")
        let role = Self.newRole()
        let admin = try PostgresConnection(uri: uri)
        try admin.execute("CREATE ROLE \(role) LOGIN")
        try admin.execute("CREATE SCHEMA hidden")
        for store in [uri + "&options=-csearch_path%3Dnowhere", Self.uri(uri, role: role) + "&options=-csearch_path%3Dhidden"] {
            for command in Self.commands {
                let result = try await run(command, store: store, in: tool)
                #expect(result.status == 77, "\(store), \(command): \(result.standardError)")
                #expect(result.standardError.contains("names no schema the role"), "\(result.standardError)")
                #expect(result.standardError.contains("GRANT USAGE, CREATE ON SCHEMA"), "\(result.standardError)")
            }
        }
    }

    /// `"a" > 0` compares a string constant with a number: SQLite would answer by its order of storage classes and
    /// PostgreSQL refuse the SQL; both stores refuse it the same way, as a mistake in `--where`.
    @Test(arguments: [#""a" > 0"#, #""a" == 0"#, #"1 IN {"a", "b"}"#, #"2.5 <= "b""#])
    func aWhereComparingConstantsOfDifferentTypesIsRefusedOnBothStores(predicate: String) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let uri = try PostgresTestServer.shared().makeDatabase("where")
        let file = tool.path("practice.sqlite")
        var errors: [String] = []
        for store in [file, uri] {
            let demo = try await tool.run(["demo", "--sessions", "100", "--years", "1", "--ending-at", "2025-05-31T20:00:00Z", "--store", store])
            #expect(demo.status == 0, "\(demo.standardError)")
            let result = try await tool.run(["sessions", "--where", predicate, "--store", store])
            #expect(result.status == 64, "\(store): \(result.standardError)")
            #expect(result.standardError.contains("can't be compared"), "\(result.standardError)")
            #expect(!result.standardError.contains("SQL"), "\(result.standardError)")
            errors.append(result.standardError)
        }
        #expect(errors[0] == errors[1])
    }

    private static func newRole() -> String {
        "role_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased())"
    }

    /// `uri` (the test server's, as user postgres) as `role`.
    private static func uri(_ uri: String, role: String) -> String {
        uri.replacingOccurrences(of: "user=postgres", with: "user=\(role)")
    }
}
