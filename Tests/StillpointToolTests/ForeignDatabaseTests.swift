import Foundation
import GRDB
import StillpointCore
import StillpointSQLite
import Testing

/// End to end: another program's SQLite database named as a store is refused (65) and left byte for byte as it
/// was, with nothing made beside it, by every command; `import` and `demo` add Stillpoint's tables to it only
/// when `--add-to-foreign-database` says so. A store is known by its tables, not by `user_version`.
@Suite("another program's database", .serialized)
struct ForeignDatabaseTests {
    /// Every command that takes a store, as it would run on one.
    static let commands: [[String]] = [
        ["check"], ["report"], ["report", "--format", "json", "--output", "report.json"], ["sessions"],
        ["sessions", "--live", "--snapshots", "1"], ["imports"], ["imports", "remove", "1"], ["export", "--output", "out.csv"],
        ["export", "--output", "-"], ["import", ImportCommandTests.fixture("generic-sessions.csv"), "--format", "csv",
         "--start-column", "Date", "--duration-column", "Minutes", "--duration-unit", "minutes"],
        ["demo", "--sessions", "10"],
    ]

    /// A notes app's database: one table, two rows, its own `user_version`, in the journal mode given.
    static func makeForeignDatabase(_ path: String, userVersion: Int, journalMode: String) throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = \(journalMode)")
            try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
            try db.execute(sql: "INSERT INTO notes (body) VALUES ('buy milk'), ('call mum')")
            try db.execute(sql: "PRAGMA user_version = \(userVersion)")
        }
        try queue.close()
    }

    /// The database's bytes and modification time, and every file in the folder.
    static func state(of path: String, in tool: ToolRunner) throws -> [String] {
        let modified = try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
        return [try Data(contentsOf: URL(fileURLWithPath: path)).base64EncodedString(), "\(modified ?? .distantPast)"]
            + (try FileManager.default.contentsOfDirectory(atPath: tool.directory.path).sorted())
    }

    @Test(arguments: [(0, "DELETE"), (7, "DELETE"), (0, "WAL"), (7, "WAL")])
    func everyCommandRefusesItUntouched(userVersion: Int, journalMode: String) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let database = tool.path("app.db")
        try Self.makeForeignDatabase(database, userVersion: userVersion, journalMode: journalMode)
        let before = try Self.state(of: database, in: tool)
        for command in Self.commands {
            let result = try await tool.run(command + ["--store", database])
            #expect(result.status == 65, "\(command): \(result.status) \(result.standardError)")
            #expect(result.standardError.contains("\(database) is another program's SQLite database (its tables: \"notes\"), "
                                                  + "not a Stillpoint store; it was left untouched"), "\(result.standardError)")
            // Its user_version is the other program's, not a Stillpoint store version.
            #expect(!result.standardError.contains("newer Stillpoint"), "\(result.standardError)")
            #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
            #expect(result.standardOutput.isEmpty, "\(command): \(result.standardOutput)")
            if ["import", "demo"].contains(command[0]) {
                #expect(result.standardError.contains("--add-to-foreign-database"), "\(result.standardError)")
            }
            #expect(try Self.state(of: database, in: tool) == before, "\(command) changed the folder or the database")
        }
    }

    @Test func importAndDemoAddTheirTablesWhenToldAndLeaveTheOthers() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let database = tool.path("app.db")
        try Self.makeForeignDatabase(database, userVersion: 0, journalMode: "DELETE")
        let csv = try SessionsCommandTests.writeSessions(["2025-06-01T06:00:00Z,1200", "2025-06-02T06:00:00Z,600"], in: tool)
        let imported = try await tool.run(["import", csv, "--format", "csv", "--store", database, "--add-to-foreign-database"])
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(imported.standardOutput.contains("2 new"), "\(imported.standardOutput)")
        let demo = try await tool.run(["demo", "--sessions", "10", "--store", database, "--add-to-foreign-database"])
        #expect(demo.status == 0, "\(demo.standardError)")
        // Now a store, for every command.
        let check = try await tool.run(["check", "--store", database])
        #expect(check.status == 0, "\(check.standardError)")
        #expect(check.standardOutput.contains("12 sessions"), "\(check.standardOutput)")
        let notes = try StoreFile(path: database).integer("SELECT count(*) FROM notes WHERE body IN ('buy milk', 'call mum')")
        #expect(notes == 2)
    }

    /// An entity of another application built on StillpointCore, whose store has Stillpoint's change log.
    enum OtherAppItem: Entity {
        static let title = Attribute<String>("title", default: "")
        static let entity = EntityDescription("Item", attributes: [title])
    }

    /// The store of another application built on StillpointCore (Stillpoint's change log, none of the practice
    /// schema's tables) is that application's database: refused untouched, naming its entities, whether it was
    /// closed or is open in that application (its write-ahead log beside it).
    @Test(arguments: [false, true])
    func anotherStillpointCoreApplicationsStoreIsRefusedUntouched(keptOpen: Bool) async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let database = tool.path("app.db")
        let container = try PersistentContainer(schema: try Schema([OtherAppItem.self]), location: .file(URL(fileURLWithPath: database)))
        try await container.performBackgroundTask { context in
            context.insert(OtherAppItem.self)[OtherAppItem.title] = "an item"
            try await context.save()
        }
        if !keptOpen { try container.close() }
        let before = try Self.state(of: database, in: tool)
        for command in Self.commands {
            let result = try await tool.run(command + ["--store", database])
            #expect(result.status == 65, "\(command): \(result.status) \(result.standardError)")
            #expect(result.standardError.contains("\(database) is another program's SQLite database (its tables: \"Item\")"),
                    "\(command): \(result.standardError)")
            #expect(try Self.state(of: database, in: tool) == before, "\(command) changed the folder or the database")
        }
        if keptOpen { try container.close() }
    }

    /// A damaged database of another program, open in it (a write-ahead log beside it, so the look at rest cannot
    /// decide), is refused as another program's database, never reported as a damaged store.
    @Test func aDamagedForeignDatabaseIsForeignNotADamagedStore() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let database = tool.path("app.db")
        let queue = try DatabaseQueue(path: database)
        defer { try? queue.close() }
        try await queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA journal_mode = WAL")
            try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)")
            for index in 0..<200 {
                try db.execute(sql: "INSERT INTO notes (body) VALUES (?)", arguments: [String(repeating: "note \(index) ", count: 20)])
            }
            try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            try db.execute(sql: "INSERT INTO notes (body) VALUES ('still open')")
        }
        // The third page, a leaf of notes that the log does not hold, overwritten.
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: database))
        try handle.seek(toOffset: 2 * 4096)
        try handle.write(contentsOf: Data(repeating: 0xFF, count: 512))
        try handle.close()
        for command in [["check"], ["report"], ["imports", "remove", "1"]] {
            let result = try await tool.run(command + ["--store", database])
            #expect(result.status == 65, "\(command): \(result.standardError)")
            #expect(result.standardError.contains("\(database) is another program's SQLite database (its tables: \"notes\")"),
                    "\(command): \(result.standardError)")
            #expect(!result.standardError.contains("damaged"), "\(command): \(result.standardError)")
        }
    }

    /// Stillpoint keeps its store version in `user_version`: a database whose program sets it cannot be shared,
    /// even when told.
    @Test func aDatabaseWhoseProgramSetsUserVersionIsRefusedEvenWhenTold() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        let database = tool.path("app.db")
        try Self.makeForeignDatabase(database, userVersion: 7, journalMode: "DELETE")
        let before = try Self.state(of: database, in: tool)
        let result = try await tool.run(["demo", "--sessions", "10", "--store", database, "--add-to-foreign-database"])
        #expect(result.status == 65, "\(result.standardError)")
        #expect(result.standardError.contains("sets user_version 7"), "\(result.standardError)")
        #expect(result.standardError.contains("make the store in a new file"), "\(result.standardError)")
        #expect(try Self.state(of: database, in: tool) == before)
    }

    @Test func theFlagIsInTheHelpOfImportAndDemo() async throws {
        let tool = try ToolRunner()
        defer { tool.cleanUp() }
        for command in ["import", "demo"] {
            let help = try await tool.run(["help", command])
            #expect(help.standardOutput.contains("--add-to-foreign-database"), "\(help.standardOutput)")
        }
    }
}
