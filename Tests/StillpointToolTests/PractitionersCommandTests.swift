import Foundation
import StillpointPostgresTestSupport
import Testing

/// `stillpoint practitioners`: listing with session counts, add, rename and remove, on SQLite and PostgreSQL.
@Suite("the practitioners command", .serialized)
struct PractitionersCommandTests {
    typealias StoreKind = SessionImportRunsTests.StoreKind

    /// Both stores, or SQLite alone where the tests run without PostgreSQL (`STILLPOINT_TEST_POSTGRES=skip`).
    static let stores = SessionImportRunsTests.stores

    private func makeStore(_ kind: StoreKind, in tool: ToolRunner) throws -> String {
        switch kind {
        case .sqlite: tool.path("practice.sqlite")
        case .postgres: try PostgresTestServer.shared().makeDatabase("practitioners")
        }
    }

    private func run(_ arguments: [String], store: String, _ tool: ToolRunner) async throws -> ToolRunner.Result {
        try await tool.run(arguments + ["--store", store])
    }

    @Test(arguments: stores)
    func practitionersAreAddedListedRenamedAndRemoved(_ kind: StoreKind) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try makeStore(kind, in: tool)
        let csv = tool.path("log.csv")
        try StoreFaultTests.writeCSV(rows: 30, to: csv)
        #expect(try await run(["import", csv, "--format", "csv"], store: store, tool).status == 0)

        let added = try await run(["practitioners", "add", "alice", "--name", "Alice Liddell", "--time-zone", "Europe/Berlin"], store: store, tool)
        #expect(added.status == 0, "\(added.standardError)")
        #expect(added.standardOutput == "added practitioner alice\n")
        let twice = try await run(["practitioners", "add", "alice"], store: store, tool)
        #expect(twice.status == 64 && twice.standardError.contains("already has a practitioner 'alice'"), "\(twice.standardError)")

        #expect(try await run(["practitioners"], store: store, tool).standardOutput == """
            alice  0 sessions  name: Alice Liddell  home time zone: Europe/Berlin
            me  30 sessions

            """)

        let renamed = try await run(["practitioners", "rename", "me", "bob"], store: store, tool)
        #expect(renamed.standardOutput == "renamed practitioner me to bob\n", "\(renamed.standardError)")
        let taken = try await run(["practitioners", "rename", "bob", "alice"], store: store, tool)
        #expect(taken.status == 64 && taken.standardError.contains("already has a practitioner 'alice'"), "\(taken.standardError)")
        let missing = try await run(["practitioners", "rename", "carol", "dave"], store: store, tool)
        #expect(missing.status == 64 && missing.standardError.contains("no practitioner 'carol'"), "\(missing.standardError)")

        let unconfirmed = try await run(["practitioners", "remove", "bob"], store: store, tool)
        #expect(unconfirmed.status == 64 && unconfirmed.standardError.contains("add --yes"), "\(unconfirmed.standardError)")
        #expect(try await run(["practitioners"], store: store, tool).standardOutput.contains("bob  30 sessions"))

        let removed = try await run(["practitioners", "remove", "bob", "--yes"], store: store, tool)
        #expect(removed.status == 0, "\(removed.standardError)")
        #expect(removed.standardOutput == "removed practitioner bob, their 30 sessions and 1 import run\n")
        #expect(try await run(["practitioners"], store: store, tool).standardOutput
                == "alice  0 sessions  name: Alice Liddell  home time zone: Europe/Berlin\n")
        #expect(try await run(["imports"], store: store, tool).standardOutput.hasPrefix("no imports recorded"))
        let gone = try await run(["practitioners", "remove", "bob", "--yes"], store: store, tool)
        #expect(gone.status == 64 && gone.standardError.contains("no practitioner 'bob'"), "\(gone.standardError)")
    }

    @Test(arguments: stores)
    func idsNamesAndZonesAreCheckedAtTheDoor(_ kind: StoreKind) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try makeStore(kind, in: tool)
        for arguments in [["add", ""], ["add", "a\u{1B}[2Jb"], ["add", "alice", "--time-zone", "Mars/Olympus"],
                          ["add", "alice", "--name", "two\nlines"], ["rename", "me", ""]] {
            let result = try await run(["practitioners"] + arguments, store: store, tool)
            #expect(result.status == 64, "\(arguments): \(result.standardError)")
            #expect(!result.standardError.contains("\u{1B}") && result.standardError.split(separator: "\n").count == 1,
                    "\(result.standardError)")
        }
        #expect(try await run(["practitioners", "add", "alice"], store: store, tool).status == 0)
        #expect(try await run(["practitioners"], store: store, tool).standardOutput == "alice  0 sessions\n")
    }
}
