import Foundation
import GRDBSQLite
import PracticeLog
import StillpointCore
import StillpointPostgres

extension PractitionersSuite {
    /// The stores the `practitioners` suite reads, built once per size (and store) per process and kept for every
    /// workload after the first: the Stillpoint store loaded through the import path, and the peers' copy of the
    /// same rows (a CSV file for DuckDB, a database filled by `COPY` for PostgreSQL's SQL). The `load` workload
    /// builds them, timed; a workload run alone builds them untimed.
    ///
    /// Their databases are not among those the harness drops after each measurement: they live as long as the
    /// benchmark's throwaway server (with `STILLPOINT_BENCH_POSTGRES`, drop the `bench_keep_*` databases after).
    actor Fixture {
        static let shared = Fixture()

        struct Peers: Sendable {
            let data: PractitionerData
            /// `practitioner,start,duration,zone`, every session, in practitioner order: DuckDB's input.
            let csv: URL
            /// The database the `COPY` filled (Stillpoint's tables, made by Stillpoint): the SQL peer reads it.
            let copyDatabase: String
            let copySeconds: Double
            let sessions: Int
        }

        struct Loaded: Sendable {
            let store: StoreKind
            /// A SQLite file or a PostgreSQL URI.
            let location: String
            let seconds: Double
            let sessions: Int

            func open() throws -> PersistentContainer {
                store == .postgres ? try PersistentContainer(schema: Session.schema, postgres: location)
                    : try PersistentContainer(schema: Session.schema, location: .file(URL(fileURLWithPath: location)))
            }
        }

        private var peers: [Int: Peers] = [:]
        private var loaded: [String: Loaded] = [:]

        /// The data of `n` practitioners: a full practitioner's sessions at the suite's sizes, a tenth of them below
        /// 100 practitioners (a smoke run, in seconds).
        static func data(_ n: Int) -> PractitionerData {
            PractitionerData(practitioners: n, density: n < 100 ? 0.1 : 1)
        }

        /// The peers' rows for `n` practitioners, made by a timed `COPY` when `fresh` or when there are none yet.
        func peers(_ n: Int, fresh: Bool = false) throws -> Peers {
            if !fresh, let made = peers[n] { return made }
            let data = Self.data(n)
            let directory = try TemporaryDirectory()
            SessionBench.Fixture.removeAtExit(directory)
            let csv = directory.url.appendingPathComponent("sessions.csv")
            // Only the first is kept for the later workloads; the harness drops another after its measurement.
            let uri = try PostgresServer.makeDatabase(peers[n] == nil ? "keep" : "copy", kept: peers[n] == nil)
            try PersistentContainer(schema: Session.schema, postgres: uri).close()
            let raw = try RawPostgres(uri: uri)
            var sessions = 0
            var text = "practitioner,start,duration,zone\n"
            let seconds = try Stopwatch.seconds {
                try raw.execute("BEGIN")
                var number = 0
                try raw.copy(#"COPY "Practitioner" ("_id", "id", "name") FROM STDIN"#) { buffer in
                    guard number < n else { return false }
                    buffer.append(contentsOf: "\(number + 1)\t\(PractitionerData.id(number))\t\n".utf8)
                    number += 1
                    return true
                }
                try raw.execute("COMMIT")
                // One transaction per practitioner, as the import commits each practitioner's run.
                for number in 0..<n {
                    let rows = data.sessions(of: number)
                    let zone = PractitionerData.zone(number)
                    var index = 0
                    try raw.execute("BEGIN")
                    try raw.copy(#"COPY "Session" ("practitioner", "start", "duration", "kind", "source", "timeZone", "key") FROM STDIN"#) { buffer in
                        guard index < rows.count else { return false }
                        let row = rows[index]
                        buffer.append(contentsOf: "\(number + 1)\t\(row.start)\t\(row.duration)\t\(row.kind)\tcsv\t\(zone)\t\(row.key)\n".utf8)
                        index += 1
                        return true
                    }
                    try raw.execute("COMMIT")
                    sessions += rows.count
                }
            }
            try raw.execute(#"SELECT setval(pg_get_serial_sequence('"Practitioner"', '_id'), \#(max(n, 1)))"#)
            try raw.execute("ANALYZE")
            let count = try raw.integer(#"SELECT count(*) FROM "Session""#)
            guard count == sessions else { throw SessionBench.Failure("the COPY left \(count) sessions, not \(sessions)") }
            if let made = peers[n] { return Peers(data: data, csv: made.csv, copyDatabase: uri, copySeconds: seconds, sessions: sessions) }
            // DuckDB's copy of the same rows (not timed).
            guard FileManager.default.createFile(atPath: csv.path, contents: nil) else { throw SessionBench.Failure("cannot create \(csv.path)") }
            let handle = try FileHandle(forWritingTo: csv)
            defer { try? handle.close() }
            for number in 0..<n {
                let zone = PractitionerData.zone(number), id = PractitionerData.id(number)
                for row in data.sessions(of: number) { text += "\(id),\(row.start),\(row.duration),\(zone)\n" }
                if text.utf8.count > 1 << 20 || number == n - 1 {
                    try handle.write(contentsOf: Data(text.utf8))
                    text = ""
                }
            }
            let made = Peers(data: data, csv: csv, copyDatabase: uri, copySeconds: seconds, sessions: sessions)
            peers[n] = made
            return made
        }

        /// The Stillpoint store of `n` practitioners on `store`, loaded through the import path when `fresh` or
        /// when there is none yet.
        func loaded(_ n: Int, _ store: StoreKind, fresh: Bool = false) async throws -> Loaded {
            let name = "\(n)-\(store.rawValue)"
            if !fresh, let made = loaded[name] { return made }
            let made = try await Self.load(Self.data(n), into: store, kept: loaded[name] == nil)
            if loaded[name] == nil { loaded[name] = made }
            return made
        }

        /// Loads every practitioner's sessions through the import path of `stillpoint import FILE --format csv
        /// --practitioner-column practitioner`: one CSV file of everyone's sessions (written first, not timed), each
        /// start with its UTC offset, which the import makes the practitioners of and records one run each for.
        private static func load(_ data: PractitionerData, into store: StoreKind, kept: Bool) async throws -> Loaded {
            let directory = try TemporaryDirectory()
            SessionBench.Fixture.removeAtExit(directory)
            let location = store == .postgres ? try PostgresServer.makeDatabase(kept ? "keep" : "load", kept: kept)
                : directory.url.appendingPathComponent("practice.sqlite").path
            let file = directory.url.appendingPathComponent("everyone.csv")
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else { throw SessionBench.Failure("cannot create \(file.path)") }
            let handle = try FileHandle(forWritingTo: file)
            var sessions = 0
            var text = "practitioner,start,duration,kind\n"
            for number in 0..<data.practitioners {
                let id = PractitionerData.id(number)
                for row in data.sessions(of: number) {
                    text += "\(id),\(row.localText)\(Self.offsetText(row.localOffset)),\(Int(row.duration)),\(row.kind)\n"
                    sessions += 1
                }
                if text.utf8.count > 1 << 20 || number == data.practitioners - 1 {
                    try handle.write(contentsOf: Data(text.utf8))
                    text = ""
                }
            }
            try handle.close()
            let loaded = Loaded(store: store, location: location, seconds: 0, sessions: sessions)
            let container = try loaded.open()
            defer { try? container.close() }
            let importer = GenericCSVImporter(startColumn: "start", duration: .seconds("duration"), kindColumn: "kind",
                                              practitionerColumn: "practitioner")
            var result: SessionImportResult?
            let seconds = try await Stopwatch.seconds {
                result = try await SessionImport(file: file.path, importer: importer).open().run(into: container)
            }
            try? FileManager.default.removeItem(at: file)
            guard let result, result.isComplete else {
                throw SessionBench.Failure("the import of \(file.lastPathComponent) did not complete: \(String(describing: result?.stop))")
            }
            let stored = try await container.performBackgroundTask { context in try context.count(for: FetchRequest(Session.self)) }
            guard stored == sessions else {
                throw SessionBench.Failure("the import stored \(stored) sessions, not the \(sessions) generated")
            }
            return Loaded(store: store, location: location, seconds: seconds, sessions: sessions)
        }

        /// `+05:30`: an offset from UTC in seconds as ISO 8601 writes it after a time.
        static func offsetText(_ seconds: Int) -> String {
            let minutes = abs(seconds) / 60
            func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            return (seconds < 0 ? "-" : "+") + two(minutes / 60) + ":" + two(minutes % 60)
        }

        /// The SQLite baseline of a load: the same rows with one prepared `INSERT` (practitioners first), one
        /// transaction per practitioner, into a store Stillpoint made; returns its seconds.
        static func rawSQLiteLoad(_ data: PractitionerData, in directory: TemporaryDirectory) throws -> Double {
            try PersistentContainer(schema: Session.schema, location: .file(directory.url.appendingPathComponent("raw.sqlite"))).close()
            let raw = try RawSQLite(.file, in: directory)
            let practitioner = try raw.prepare(#"INSERT INTO "Practitioner" ("_id", "id", "name") VALUES (?, ?, '')"#)
            defer { sqlite3_finalize(practitioner) }
            let session = try raw.prepare(#"INSERT INTO "Session" ("practitioner", "start", "duration", "kind", "source", "timeZone", "key") VALUES (?, ?, ?, ?, 'csv', ?, ?)"#)
            defer { sqlite3_finalize(session) }
            return try Stopwatch.seconds {
                try raw.execute("BEGIN")
                for number in 0..<data.practitioners {
                    sqlite3_bind_int64(practitioner, 1, Int64(number + 1))
                    sqlite3_bind_text(practitioner, 2, PractitionerData.id(number), -1, RawSQLite.transient)
                    try raw.stepDone(practitioner, "INSERT INTO Practitioner")
                }
                try raw.execute("COMMIT")
                for number in 0..<data.practitioners {
                    let zone = PractitionerData.zone(number)
                    try raw.execute("BEGIN")
                    for row in data.sessions(of: number) {
                        sqlite3_bind_int64(session, 1, Int64(number + 1))
                        sqlite3_bind_double(session, 2, row.start)
                        sqlite3_bind_double(session, 3, row.duration)
                        sqlite3_bind_text(session, 4, row.kind, -1, RawSQLite.transient)
                        sqlite3_bind_text(session, 5, zone, -1, RawSQLite.transient)
                        sqlite3_bind_text(session, 6, row.key, -1, RawSQLite.transient)
                        try raw.stepDone(session, "INSERT INTO Session")
                    }
                    try raw.execute("COMMIT")
                }
            }
        }
    }
}
