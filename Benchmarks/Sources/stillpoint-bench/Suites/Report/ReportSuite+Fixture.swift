import Foundation
import GRDBSQLite
import PracticeLog
import StillpointCore
import StillpointSQLite

extension ReportSuite {
    /// The practice logs the `report` suite reads: N sessions of ``DemoHistory`` spread over ten years and ending
    /// today, built once per size per process (not timed) and only read afterwards.
    ///
    /// Stillpoint makes the store (`PersistentContainer(schema: Session.schema, ...)`: the `Session` table and its
    /// indexes on start, kind, duration and the unique key, exactly as the tool makes them); one raw SQLite
    /// connection then writes the sessions with one prepared INSERT in one transaction, and closing it folds the
    /// WAL into the file.
    actor Fixture {
        static let shared = Fixture()

        struct Store: Sendable {
            /// The folder whose `raw.sqlite` is the store (the name ``RawSQLite`` opens).
            let directory: TemporaryDirectory
            var url: URL { directory.url.appendingPathComponent("raw.sqlite") }
            /// Seconds it took to generate and write the sessions.
            let buildSeconds: Double
            /// Sessions whose ``DemoHistory`` key repeated an earlier session's (with a million sessions over ten
            /// years, days get so full that two days' practice windows, in different zones during trips, share
            /// start seconds); they are kept with a suffix added to the key.
            let duplicateKeys: Int
        }

        private var stores: [Int: Store] = [:]

        func store(sessions: Int) throws -> Store {
            if let store = stores[sessions] { return store }
            let directory = try TemporaryDirectory()
            SessionBench.Fixture.removeAtExit(directory)
            let clock = ContinuousClock()
            let start = clock.now
            try PersistentContainer(schema: Session.schema, location: .file(directory.url.appendingPathComponent("raw.sqlite"))).close()
            let duplicates = try Self.fill(directory, sessions: sessions)
            let store = Store(directory: directory, buildSeconds: (clock.now - start).seconds, duplicateKeys: duplicates)
            stores[sessions] = store
            return store
        }

        /// Writes the sessions and returns how many of them repeated an earlier session's key.
        private static func fill(_ directory: TemporaryDirectory, sessions: Int) throws -> Int {
            let raw = try RawSQLite(.file, in: directory)
            try raw.execute("PRAGMA synchronous = OFF")
            try raw.execute("BEGIN")
            let sql = #"INSERT INTO "Session" ("start", "duration", "kind", "source", "timeZone", "note", "key") VALUES (?, ?, ?, ?, ?, ?, ?)"#
            let statement = try raw.prepare(sql)
            defer { sqlite3_finalize(statement) }
            var written = 0
            var duplicates = 0
            for record in DemoHistory(sessions: sessions, years: 10, endingAt: Date()) {
                sqlite3_bind_double(statement, 1, record.start.timeIntervalSince1970)
                sqlite3_bind_double(statement, 2, record.duration)
                sqlite3_bind_text(statement, 3, record.kind, -1, RawSQLite.transient)
                sqlite3_bind_text(statement, 4, record.source, -1, RawSQLite.transient)
                if let zone = record.timeZone {
                    sqlite3_bind_text(statement, 5, zone, -1, RawSQLite.transient)
                } else {
                    sqlite3_bind_null(statement, 5)
                }
                if let note = record.note {
                    sqlite3_bind_text(statement, 6, note, -1, RawSQLite.transient)
                } else {
                    sqlite3_bind_null(statement, 6)
                }
                sqlite3_bind_text(statement, 7, record.key, -1, RawSQLite.transient)
                var code = sqlite3_step(statement)
                if code == SQLITE_CONSTRAINT {
                    // A key the history already gave an earlier session (see `duplicateKeys`): keep the session,
                    // with its key made unique, so that the log holds exactly N sessions.
                    sqlite3_reset(statement)
                    sqlite3_bind_text(statement, 7, record.key + "|\(written)", -1, RawSQLite.transient)
                    code = sqlite3_step(statement)
                    duplicates += 1
                }
                guard code == SQLITE_DONE else { throw raw.failure(sql) }
                sqlite3_reset(statement)
                written += 1
            }
            try raw.execute("COMMIT")
            guard written == sessions else {
                throw SessionBench.Failure("the demo history made \(written) sessions, not \(sessions)")
            }
            return duplicates
        }
    }
}
