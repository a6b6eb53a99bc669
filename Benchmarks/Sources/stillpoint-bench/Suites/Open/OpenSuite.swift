import Foundation
import GRDBSQLite
import PracticeLog
import StillpointCore
import StillpointSQLite

/// Opening a store of N sessions, read-only (what `report`, `export` and `check` do) and for writing (what
/// `import` and `demo` do), against a raw SQLite connection opening the same file in the same run.
///
/// The store is the `report` suite's (``ReportSuite/Fixture``: N demo sessions, made by Stillpoint and closed
/// cleanly, built once per process and not timed). The Stillpoint side is timed from `PersistentContainer(...)` to
/// its return: the preflight (file kind, header, store version, the clean-close marker, the migration plan) and
/// the connection, plus for writing the WAL set-up and the transaction that registers the writer. The baseline
/// opens a connection with `sqlite3_open_v2` and reads the schema (`SELECT count(*) FROM sqlite_master`), which
/// is when SQLite really opens the file; for writing it also asks for WAL mode. Closing is not timed on either
/// side. Target: at most 20 ms per open of a 1,000,000-session store (`open_ms`), where a `PRAGMA quick_check`
/// on every open cost 0.6 s.
struct OpenSuite: BenchmarkSuite {
    let name = "open"
    let summary = "opening a store of N sessions, read-only and for writing, vs a raw SQLite open (target 20 ms)"
    let sizes = [1_000_000]
    let stores: [StoreKind] = [.file]

    var workloads: [Workload] {
        [
            Workload(name: "open-read") { try await Self.measure($0, access: .readOnly) },
            Workload(name: "open-write") { try await Self.measure($0, access: .readWrite) },
        ]
    }

    static func measure(_ benchmarkCase: BenchmarkCase, access: StoreAccess) async throws -> Sample {
        guard benchmarkCase.store == .file else {
            throw SessionBench.Failure("the open suite opens a SQLite file store only (--store file)")
        }
        let fixture = try await ReportSuite.Fixture.shared.store(sessions: benchmarkCase.n)
        let url = fixture.url

        var container: PersistentContainer?
        let seconds = try Stopwatch.seconds {
            container = try PersistentContainer(schema: Session.schema, location: .file(url), access: access)
        }
        try container?.close()
        container = nil

        var connection: OpaquePointer?
        let flags = access == .readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE
        var baselineFailure: String?
        let baseline = Stopwatch.seconds {
            guard sqlite3_open_v2(url.path, &connection, flags | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK else {
                baselineFailure = "cannot open \(url.path)"
                return
            }
            let sql = (access == .readWrite ? "PRAGMA journal_mode = WAL; " : "") + "SELECT count(*) FROM sqlite_master"
            if sqlite3_exec(connection, sql, nil, nil, nil) != SQLITE_OK {
                baselineFailure = "\(sql): \(String(cString: sqlite3_errmsg(connection)))"
            }
        }
        sqlite3_close_v2(connection)
        if let baselineFailure { throw SessionBench.Failure(baselineFailure) }
        return Sample(seconds: seconds, baselineSeconds: baseline, metrics: ["open_ms": seconds * 1_000])
    }
}
