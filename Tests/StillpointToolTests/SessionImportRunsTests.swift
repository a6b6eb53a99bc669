import Foundation
import StillpointChildProcess
import GRDB
import StillpointPostgres
import StillpointPostgresTestSupport
import Testing

/// A session belongs to every import run that read it (docs/import-runs.md), on SQLite and PostgreSQL: removing a
/// run removes only what no other run read, `by_import` has an entry per run, a killed run is replaced by the next
/// complete import of its file, links to a run another program deleted are named by `check` and repaired by
/// `import`, and a store of format version 1 keeps its runs.
@Suite("sessions and import runs", .serialized)
struct SessionImportRunsTests {
    enum StoreKind: String, CustomStringConvertible, CaseIterable {
        case sqlite, postgres
        var description: String { rawValue }
    }

    /// Both stores, or SQLite alone where the tests run without PostgreSQL (`STILLPOINT_TEST_POSTGRES=skip`).
    static let stores: [StoreKind] = PostgresTestServer.isWanted ? [.sqlite, .postgres] : [.sqlite]

    private func makeStore(_ kind: StoreKind, in tool: ToolRunner) throws -> String {
        switch kind {
        case .sqlite: tool.path("practice.sqlite")
        case .postgres: try PostgresTestServer.shared().makeDatabase("runs")
        }
    }

    /// Runs SQL behind the tool's back, with foreign keys off (SQLite) or their triggers disabled (PostgreSQL), as
    /// another program may.
    private func executeBehindTheToolsBack(_ sql: [String], on store: String, kind: StoreKind) throws {
        switch kind {
        case .sqlite:
            var configuration = Configuration()
            configuration.foreignKeysEnabled = false
            let queue = try DatabaseQueue(path: store, configuration: configuration)
            try queue.writeWithoutTransaction { db in for statement in sql { try db.execute(sql: statement) } }
            try queue.close()
        case .postgres:
            let connection = try PostgresConnection(uri: store)
            try connection.execute("SET session_replication_role = replica")
            for statement in sql { try connection.execute(statement) }
        }
    }

    /// `full.csv` with 50 sessions and `part.csv` with the first 25 of them.
    private func writeFullAndPart(in tool: ToolRunner) throws -> (full: String, part: String) {
        let full = tool.path("full.csv"), part = tool.path("part.csv")
        try StoreFaultTests.writeCSV(rows: 50, to: full)
        let lines = try String(contentsOfFile: full, encoding: .utf8).split(separator: "\n")
        try (lines.prefix(26).joined(separator: "\n") + "\n").write(toFile: part, atomically: true, encoding: .utf8)
        return (full, part)
    }

    private func importCSV(_ file: String, into store: String, _ tool: ToolRunner) async throws -> ToolRunner.Result {
        let result = try await tool.run(["import", file, "--format", "csv", "--store", store])
        #expect(result.status == 0, "\(result.standardError)")
        return result
    }

    @Test(arguments: stores)
    func removingARunRemovesOnlySessionsNoOtherRunRead(_ kind: StoreKind) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try makeStore(kind, in: tool)
        let (full, part) = try writeFullAndPart(in: tool)
        #expect(try await importCSV(full, into: store, tool).standardOutput.contains("as run 1: 50 new"))
        let second = try await importCSV(part, into: store, tool)
        #expect(second.standardOutput.contains("as run 2: 0 new, 0 updated, 25 already there"), "\(second.standardOutput)")

        let listed = try await tool.run(["imports", "--store", store]).standardOutput
        #expect(listed.contains("full.csv  csv") && listed.contains("50 sessions now"), "\(listed)")
        #expect(listed.contains("part.csv  csv") && listed.contains("25 sessions now"), "\(listed)")

        let removed = try await tool.run(["imports", "remove", "2", "--store", store])
        #expect(removed.status == 0, "\(removed.standardError)")
        #expect(removed.standardOutput.contains("removed run 2 and the 0 sessions no other run read"), "\(removed.standardOutput)")
        #expect(try await ImportCommandTests().count(store, in: tool) == 50)

        // The other way round: run 1 goes, and what the next run of part.csv read too stays.
        let third = try await importCSV(part, into: store, tool).standardOutput
        #expect(third.contains(": 0 new, 0 updated, 25 already there"), "\(third)")
        let first = try await tool.run(["imports", "remove", "1", "--store", store])
        #expect(first.standardOutput.contains("removed run 1 and the 25 sessions no other run read"), "\(first.standardOutput)")
        #expect(try await ImportCommandTests().count(store, in: tool) == 25)
        #expect(try await tool.run(["imports", "--store", store]).standardOutput.contains("25 sessions now"))
    }

    /// Two runs of files both named `log.csv`, a file named `not imported`, and sessions no import read: four
    /// entries, keyed by run, in every format.
    @Test(arguments: stores)
    func byImportHasAnEntryPerRunAndNoFileTakesTheNotImportedKey(_ kind: StoreKind) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try makeStore(kind, in: tool)
        let demo = try await tool.run(["demo", "--sessions", "3", "--years", "1", "--ending-at", "2019-06-01T20:00:00Z", "--store", store])
        #expect(demo.status == 0, "\(demo.standardError)")
        for (folder, rows) in [("a", "2024-03-01T07:00:00Z,600\n"), ("b", "2024-03-02T07:00:00Z,900\n2024-03-03T07:00:00Z,300\n")] {
            try FileManager.default.createDirectory(atPath: tool.path(folder), withIntermediateDirectories: true)
            try ("start,duration\n" + rows).write(toFile: tool.path("\(folder)/log.csv"), atomically: true, encoding: .utf8)
            _ = try await importCSV("\(folder)/log.csv", into: store, tool)
        }
        try "start,duration\n2024-03-04T07:00:00Z,1200\n".write(toFile: tool.path("not imported"), atomically: true, encoding: .utf8)
        _ = try await importCSV("not imported", into: store, tool)

        let config = tool.path("by-import.yaml")
        try "version: 1\nstatistics:\n  - id: by_import\n".write(toFile: config, atomically: true, encoding: .utf8)
        func report(_ format: String) async throws -> String {
            let result = try await tool.run(["report", "--store", store, "--config", config, "--format", format, "--as-of", "2030-01-01T00:00:00Z"])
            #expect(result.status == 0, "\(result.standardError)")
            return result.standardOutput
        }
        let json = try await report("json")
        for (key, count) in [("run 1: a/log.csv", 1), ("run 2: b/log.csv", 2), ("run 3: not imported", 1), ("not imported", 3)] {
            let pattern = "\"\(NSRegularExpression.escapedPattern(for: key))\": \\{\\s*\"count\": \(count),"
            #expect(json.range(of: pattern, options: .regularExpression) != nil, "\(key) with \(count) in \(json)")
        }
        let csv = try await report("csv")
        #expect(csv.contains("by_import.run 1: a/log.csv.count,by_import,ok,1,count"), "\(csv)")
        #expect(csv.contains("by_import.run 2: b/log.csv.count,by_import,ok,2,count"), "\(csv)")
        #expect(csv.contains("by_import.run 3: not imported.count,by_import,ok,1,count"), "\(csv)")
        #expect(csv.contains("by_import.not imported.count,by_import,ok,3,count"), "\(csv)")
        for format in ["text", "markdown", "html"] {
            let output = try await report(format)
            for key in ["run 1: a/log.csv", "run 2: b/log.csv", "run 3: not imported"] {
                #expect(output.contains(key), "\(format): \(key) in \(output)")
            }
        }
    }

    /// A run killed part-way is listed as killed, and the next complete import of its file replaces it.
    @Test(arguments: stores)
    func aKilledRunIsListedAsSuchAndACompleteImportReplacesIt(_ kind: StoreKind) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try makeStore(kind, in: tool)
        // Sessions 37 minutes apart from 2020 on: all before today, and enough to take the import a few seconds.
        let rows = 60_000
        let csv = tool.path("sessions.csv")
        try StoreFaultTests.writeCSV(rows: rows, to: csv)
        #expect(try await tool.run(["demo", "--sessions", "0", "--store", store]).status == 0)
        let running = try RunningTool(["import", csv, "--format", "csv", "--store", store], in: tool)
        var listed = ""
        let deadline = ContinuousClock.now + .seconds(120)
        while ContinuousClock.now < deadline {
            listed = try await tool.run(["imports", "--store", store]).standardOutput
            if listed.contains("still running"), !listed.contains(" 0 sessions now") { break }
            usleep(50_000)
        }
        running.kill()
        #expect(listed.contains("still running"), "\(listed)")
        let killed = try await tool.run(["imports", "--store", store]).standardOutput
        #expect(killed.contains("run 1") && killed.contains("(unfinished: killed"), "\(killed)")

        let complete = try await importCSV(csv, into: store, tool)
        #expect(complete.standardError.contains("this file was imported before (run 1"), "\(complete.standardError)")
        #expect(complete.standardError.contains("killed part-way): run 2 replaces it"), "\(complete.standardError)")
        let after = try await tool.run(["imports", "--store", store]).standardOutput
        #expect(after.split(separator: "\n").count == 1 && after.contains("run 2") && after.contains("\(rows) sessions now"), "\(after)")
        #expect(try await ImportCommandTests().count(store, in: tool) == rows)
    }

    /// Another program deletes an import run without its links: `check` names it (65), and an import repairs it.
    @Test(arguments: stores)
    func linksToARunThatIsGoneAreNamedByCheckAndRepairedByImport(_ kind: StoreKind) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try makeStore(kind, in: tool)
        let (full, part) = try writeFullAndPart(in: tool)
        _ = try await importCSV(full, into: store, tool)
        // The run, and the last session (which part.csv does not hold), deleted without their links.
        try executeBehindTheToolsBack([#"DELETE FROM "ImportRun" WHERE "_id" = 1"#,
                                       #"DELETE FROM "Session" WHERE "_id" = (SELECT max("_id") FROM "Session")"#], on: store, kind: kind)

        let check = try await tool.run(["check", "--store", store])
        #expect(check.status == 65, "\(check.standardOutput) \(check.standardError)")
        #expect(check.standardError.contains("50 sessions are linked to import run 1, which is gone; 1 link reaches a session that is gone"),
                "\(check.standardError)")
        #expect(check.standardError.contains("stillpoint import FILE"), "\(check.standardError)")

        let repaired = try await importCSV(part, into: store, tool)
        #expect(repaired.standardOutput.contains("0 new"), "\(repaired.standardOutput)")
        // SQLite may give the new run the number of the one that is gone: the links were removed before it began.
        let run = try #require(repaired.standardOutput.firstMatch(of: /as run (\d+):/)?.1)
        let again = try await tool.run(["check", "--store", store])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(again.standardOutput.contains("49 sessions"), "\(again.standardOutput)")
        // The sessions stay: those run 2 read are its own, the rest no run read.
        #expect(try await tool.run(["imports", "--store", store]).standardOutput.contains("25 sessions now"))
        let removed = try await tool.run(["imports", "remove", String(run), "--store", store])
        #expect(removed.standardOutput.contains("removed run \(run) and the 25 sessions no other run read"), "\(removed.standardOutput)")
        #expect(try await ImportCommandTests().count(store, in: tool) == 24)
    }

    /// A store of format version 1 (one run per session, in `Session.importRun`), made from `full.csv` and then
    /// `part.csv`; the last session names a run that is gone.
    private func makeVersionOneStore(_ kind: StoreKind, in tool: ToolRunner) async throws -> String {
        let store = try makeStore(kind, in: tool)
        let (full, part) = try writeFullAndPart(in: tool)
        _ = try await importCSV(full, into: store, tool)
        _ = try await importCSV(part, into: store, tool)
        // Back to version 1's layout: each session names the last run that wrote it; one names a run that is gone.
        let integer = kind == .sqlite ? "INTEGER" : "bigint"
        var downgrade = [
            #"ALTER TABLE "Session" ADD COLUMN "importRun" \#(integer) REFERENCES "ImportRun" ("_id")"#,
            #"UPDATE "Session" SET "importRun" = (SELECT max("source") FROM "_ImportRun_sessions" WHERE "target" = "Session"."_id")"#,
            #"UPDATE "Session" SET "importRun" = 99 WHERE "_id" = (SELECT max("_id") FROM "Session")"#,
            #"DROP TABLE "_ImportRun_sessions""#,
            #"DROP TABLE "_stillpoint_schema_version""#,
            #"ALTER TABLE "ImportRun" DROP COLUMN "process""#,
        ]
        downgrade.append(kind == .sqlite ? "PRAGMA user_version = 1" : "UPDATE _stillpoint_store SET format = 1")
        try executeBehindTheToolsBack(downgrade, on: store, kind: kind)
        return store
    }

    /// A store of format version 1 keeps its runs when this release first writes it, and is then of version 2,
    /// which version 1 refuses.
    @Test(arguments: stores)
    func aStoreOfVersionOneKeepsItsRuns(_ kind: StoreKind) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await makeVersionOneStore(kind, in: tool)

        // Any import upgrades it (reading commands do too, below).
        let other = tool.path("other.csv")
        try "start,duration\n2024-04-01T07:00:00Z,600\n".write(toFile: other, atomically: true, encoding: .utf8)
        _ = try await importCSV(other, into: store, tool)
        let listed = try await tool.run(["imports", "--store", store]).standardOutput
        let lines = listed.split(separator: "\n")
        #expect(lines.count == 3, "\(listed)")
        // Version 1 kept the last run that wrote each session: run 2 for the first 25, run 1 for the next 24; the
        // last session named a run that is gone, and now belongs to none.
        #expect(lines.first?.contains("24 sessions now") == true, "\(listed)")
        #expect(lines.dropFirst().first?.contains("25 sessions now") == true, "\(listed)")
        #expect(try await ImportCommandTests().count(store, in: tool) == 51)
        let check = try await tool.run(["check", "--store", store])
        #expect(check.status == 0, "\(check.standardError)")
        #expect(check.standardOutput.contains("store version 2"), "\(check.standardOutput)")
        if kind == .sqlite {
            #expect(try StoreFile(path: store).integer("PRAGMA user_version") == 2)
        }
    }

    /// Every command upgrades a store of format version 1 on either store, as its first command: reading
    /// commands by a short read-write open, and `imports remove` before it removes.
    @Test(arguments: stores, [["report"], ["check"], ["sessions"], ["imports"], ["imports", "remove", "2"]])
    func everyCommandUpgradesAStoreOfVersionOne(_ kind: StoreKind, first: [String]) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try await makeVersionOneStore(kind, in: tool)
        let result = try await tool.run(first + ["--store", store])
        #expect(result.status == 0, "\(first): \(result.standardError)")
        if first.contains("remove") {
            // Run 2 was the last to write the first 25 sessions, the only run version 1 knew for them.
            #expect(result.standardOutput.contains("removed run 2"), "\(result.standardOutput)")
            #expect(try await ImportCommandTests().count(store, in: tool) == 25)
        }
        let check = try await tool.run(["check", "--store", store])
        #expect(check.status == 0, "\(check.standardError)")
        #expect(check.standardOutput.contains("store version 2"), "\(check.standardOutput)")
    }

    /// Two runs removed at once, by two processes, remove the sessions only they read: none is left behind
    /// belonging to no run. On PostgreSQL another session holds a `SHARE` lock on the sessions' table, so that the
    /// removal of run 1 waits to delete its sessions while that of run 2 goes as far as it can; on SQLite the two
    /// removals wait behind another connection's write lock and start together when it is released.
    @Test(.timeLimit(.minutes(5)), arguments: stores)
    func twoRunsRemovedAtOnceRemoveTheSessionsOnlyTheyRead(_ kind: StoreKind) async throws {
        for attempt in 1...3 {
            let tool = try ToolRunner()
            defer { tool.cleanUp() }
            let store = try makeStore(kind, in: tool)
            let (full, part) = try writeFullAndPart(in: tool)
            _ = try await importCSV(full, into: store, tool)
            _ = try await importCSV(part, into: store, tool)
            var removals: [ChildProcess] = []
            func startRemovals() throws {
                removals = try ["1", "2"].map { try tool.start(["imports", "remove", $0, "--store", store], standardOutput: .null, standardError: .null) }
            }
            switch kind {
            case .sqlite:
                try StoreFile(path: store).whileWriteLocked {
                    try startRemovals()
                    usleep(1_500_000)
                }
            case .postgres:
                let holder = try PostgresConnection(uri: store), observer = try PostgresConnection(uri: store)
                try holder.execute("BEGIN")
                try holder.execute(#"LOCK TABLE "Session" IN SHARE MODE"#)
                try startRemovals()
                // Until run 1's removal waits and run 2's has ended or waits too.
                let deadline = ContinuousClock.now + .seconds(30)
                while ContinuousClock.now < deadline {
                    let waiting = try observer.execute("SELECT count(*)::text FROM pg_stat_activity WHERE datname = current_database() "
                                                       + "AND wait_event_type = 'Lock'").text(row: 0, column: 0) ?? "0"
                    if waiting == "2" || (waiting == "1" && !removals[1].isRunning) { break }
                    usleep(20_000)
                }
                try holder.execute("ROLLBACK")
            }
            for (run, removal) in removals.enumerated() {
                #expect(removal.waitUntilExit() == .exited(0), "attempt \(attempt): removing run \(run + 1)")
            }
            // Runs 1 and 2 both read the first 25 sessions: with both gone, nothing holds them.
            #expect(try await ImportCommandTests().count(store, in: tool) == 0, "attempt \(attempt)")
        }
    }

    /// A watched report follows a run's removal that deletes no session: the sessions it shared move to the run
    /// that still holds them.
    @Test(.timeLimit(.minutes(3)), arguments: stores)
    func aWatchedReportFollowsARunsRemoval(_ kind: StoreKind) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let store = try makeStore(kind, in: tool)
        _ = try writeFullAndPart(in: tool)
        // By the names as given, relative to the tool's folder, as by_import shows them.
        _ = try await importCSV("part.csv", into: store, tool)
        _ = try await importCSV("full.csv", into: store, tool)
        let config = tool.path("by-import.yaml")
        try "version: 1\nstatistics:\n  - id: by_import\n".write(toFile: config, atomically: true, encoding: .utf8)
        let watching = try RunningTool(["report", "--watch", "--store", store, "--config", config, "--as-of", "2030-01-01T00:00:00Z"], in: tool)
        defer { watching.kill() }
        #expect(watching.waitForOutput(within: .seconds(60)) { $0.contains("run 1: part.csv") && $0.contains("run 2: full.csv") },
                "\(watching.standardOutput) \(watching.standardError)")

        let removed = try await tool.run(["imports", "remove", "1", "--store", store])
        #expect(removed.standardOutput.contains("removed run 1 and the 0 sessions no other run read"), "\(removed.standardOutput)")
        let followed = watching.waitForOutput(within: .seconds(60)) { output in
            output.range(of: #"run 2: full\.csv +50 sessions"#, options: .regularExpression) != nil
        }
        #expect(followed, "\(watching.standardOutput) \(watching.standardError)")
        let (status, _) = watching.interruptAndWaitForExit(within: .seconds(20))
        #expect(status == 0, "\(watching.standardError)")
    }
}
