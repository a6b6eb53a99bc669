import Foundation
import GRDBSQLite
import StillpointCore
import StillpointSQLite

/// What the `import`, `export` and `responsiveness` suites share: a session-like entity (start, duration, kind,
/// a unique key), the rows both sides of a benchmark write or read, and a store of N such rows built quickly.
///
/// Everything is nested here so that the suites, which share one module with the others, add one name only.
enum SessionBench {
    /// A session-like entity: the four attributes the issue names, and a unique index on the key that imports
    /// match records by (and that the baseline's `ON CONFLICT` needs).
    ///
    /// Its table is `"_id" INTEGER PRIMARY KEY, "_version" INTEGER NOT NULL DEFAULT 1, "start" REAL NOT NULL,
    /// "duration" REAL NOT NULL, "kind" TEXT NOT NULL, "key" TEXT NOT NULL`, plus `UNIQUE ("key")`; the
    /// baselines use a store whose tables Stillpoint made, so the two sides have the same table, column for column.
    enum Record: Entity {
        static let start = Attribute<Date>("start")
        static let duration = Attribute<Double>("duration")
        static let kind = Attribute<String>("kind")
        static let key = Attribute<String>("key")
        static let entity = EntityDescription(
            "LoggedSession", attributes: [start, duration, kind, key], indexes: [IndexDescription([key], isUnique: true)])

        static let schema: Schema = {
            do {
                return try Schema([Record.self])
            } catch {
                fatalError("the LoggedSession schema is invalid: \(error)")
            }
        }()

        static let columns = ["start", "duration", "kind", "key"]
    }

    /// One generated session, the same on both sides of every benchmark.
    struct Row {
        /// Seconds since 1970, whole.
        let start: Double
        /// Seconds, whole: 5 to 60 minutes.
        let duration: Double
        let kind: String
        /// `s-<index>`: unique, and short enough to stay a small string (no allocation) below 10^13.
        let key: String
    }

    private static let kinds = ["meditation", "yoga", "walking", "tai_chi"]

    /// Row `index`: a session every 317 seconds from September 2020, of varying length and kind.
    static func row(_ index: Int) -> Row {
        Row(start: 1_600_000_000 + Double(index) * 317,
            duration: Double(300 + (index &* 7_919) % 3_301),
            kind: kinds[index & 3],
            key: "s-\(index)")
    }

    /// The record an ``ImportOperation`` reads for row `index`.
    static func importRecord(_ index: Int) -> ImportRecord {
        let row = row(index)
        return ImportRecord(["start": .date(Date(timeIntervalSince1970: row.start)), "duration": .double(row.duration),
                             "kind": .string(row.kind), "key": .string(row.key)],
                            position: index)
    }

    /// Generates records `range` on the fly, one at a time: never an array of a million.
    struct GeneratedSource: ImportRecordSource {
        let range: Range<Int>
        private var index: Int

        init(_ range: Range<Int>) {
            self.range = range
            self.index = range.lowerBound
        }

        mutating func next() throws -> ImportSourceElement? {
            guard index < range.upperBound else { return nil }
            defer { index += 1 }
            return .record(SessionBench.importRecord(index))
        }

        var expectedRecordCount: Int? { range.count }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: Raw SQLite

    static let insertSQL = #"INSERT INTO "LoggedSession" ("start", "duration", "kind", "key") VALUES (?, ?, ?, ?)"#

    /// Binds row `index` to an insert of ``insertSQL``'s shape and steps it.
    static func insertRow(_ index: Int, with statement: OpaquePointer, on raw: RawSQLite, sql: String) throws {
        let row = row(index)
        sqlite3_bind_double(statement, 1, row.start)
        sqlite3_bind_double(statement, 2, row.duration)
        sqlite3_bind_text(statement, 3, row.kind, -1, RawSQLite.transient)
        sqlite3_bind_text(statement, 4, row.key, -1, RawSQLite.transient)
        try raw.stepDone(statement, sql)
    }

    /// Makes `raw.sqlite` in `directory` with Stillpoint's tables for ``Record`` and nothing in them, so that a
    /// baseline works on exactly the table Stillpoint would.
    static func makeEmptyStore(in directory: TemporaryDirectory) throws -> URL {
        let url = directory.url.appendingPathComponent("raw.sqlite")
        try PersistentContainer(schema: Record.schema, location: .file(url)).close()
        return url
    }

    /// Makes `raw.sqlite` in `directory` holding rows `0 ..< rows`, written with one prepared INSERT in one
    /// transaction (not measured: it sets a benchmark up).
    static func makeStore(rows: Int, in directory: TemporaryDirectory) throws -> URL {
        let url = try makeEmptyStore(in: directory)
        let raw = try RawSQLite(.file, in: directory)
        try raw.execute("PRAGMA synchronous = OFF")
        try raw.execute("BEGIN")
        let statement = try raw.prepare(insertSQL)
        defer { sqlite3_finalize(statement) }
        for index in 0..<rows {
            try insertRow(index, with: statement, on: raw, sql: insertSQL)
        }
        try raw.execute("COMMIT")
        // Closing the last connection folds the WAL into the file, which can then be copied alone.
        return url
    }

    /// The rows of the table at `url`, counted through a raw connection.
    static func rowCount(in directory: TemporaryDirectory) throws -> Int {
        Int(try RawSQLite(.file, in: directory).integer(#"SELECT COUNT(*) FROM "LoggedSession""#))
    }
}
