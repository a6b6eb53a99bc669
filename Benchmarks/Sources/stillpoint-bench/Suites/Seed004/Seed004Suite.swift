import Foundation
import GRDBSQLite
import StillpointCore
import StillpointSQLite

/// Seed 004's write / delete benchmark: N `Item`s written in a background context and saved once, then fetched
/// and deleted one by one through a context, against the raw SQLite C API doing the same work in the same run
/// (on the `postgres` store, against libpq: see ``PostgresBaseline``).
struct Seed004Suite: BenchmarkSuite {
    let name = "seed004"
    let summary = "write, fetch-delete and batch-delete of N Items vs the raw SQLite C API, or libpq on postgres (seed 004)"
    let sizes = [500, 5_000, 50_000]
    let stores: [StoreKind] = [.file, .memory]
    let smokeStores: [StoreKind] = [.file, .memory, .postgres]

    var workloads: [Workload] {
        [
            Workload(name: "write", target: .init(n: 50_000, maxRatio: 2), measure: Self.write),
            Workload(name: "fetch-delete", target: .init(n: 50_000, maxRatio: 3), measure: Self.fetchDelete),
            Workload(name: "batch-delete", target: .init(n: 50_000, maxRatio: 1.5), measure: Self.batchDelete),
        ]
    }

    // MARK: write

    /// Inserts N items in a background context and saves once; the baseline is one prepared INSERT, stepped N
    /// times in one transaction.
    static func write(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        let n = Int32(benchmarkCase.n)

        let baseline: Double
        var baselineCPU = 0.0
        var rawVariants: [String: Double] = [:]
        var baselineServerCPU = 0.0
        if benchmarkCase.store == .postgres {
            let raw = try PostgresBaseline.open()
            let server = PostgresServer.backendCPU()
            let cpu = ResourceUsage.processCPUSeconds()
            baseline = try Stopwatch.seconds { try PostgresBaseline.insert(n, into: raw) }
            baselineCPU = ResourceUsage.processCPUSeconds() - cpu
            baselineServerCPU = PostgresServer.serverCPUSeconds(since: server)
            try PostgresBaseline.expect(raw, rows: n, after: "the libpq write")
            if Phases.reported { rawVariants = try PostgresBaseline.writeVariants(n, into: raw) }
        } else {
            let raw = try RawSQLite(benchmarkCase.store, in: benchmarkCase.directory)
            try raw.createItemTable()
            let cpu = ResourceUsage.processCPUSeconds()
            baseline = try Stopwatch.seconds { try rawInsert(n, into: raw) }
            baselineCPU = ResourceUsage.processCPUSeconds() - cpu
            try expect(raw, rows: n, after: "the raw write")
        }

        let container = try benchmarkCase.store.container(schema: Item.schema, in: benchmarkCase.directory)
        var phases = Phases()
        let server = benchmarkCase.store == .postgres ? PostgresServer.backendCPU() : [:]
        let cpu = ResourceUsage.processCPUSeconds()
        let seconds = try await Stopwatch.seconds {
            phases = try await container.performBackgroundTask { context in
                var phases = Phases()
                phases.time("insert_ms") {
                    for uid in 0..<n {
                        let item = context.insert(Item.self)
                        item[Item.uid] = uid
                        item[Item.title] = Item.title(uid)
                    }
                }
                let saveStart = ContinuousClock.now
                try await context.save()
                phases.record("save_ms", since: saveStart)
                return phases
            }
        }
        phases.cpu(stillpoint: ResourceUsage.processCPUSeconds() - cpu, baseline: baselineCPU)
        if benchmarkCase.store == .postgres {
            phases.serverCPU(stillpoint: PostgresServer.serverCPUSeconds(since: server), baseline: baselineServerCPU)
        }
        try await expect(container, rows: n, after: "the write")
        if benchmarkCase.store == .postgres { try container.close() }
        return Sample(seconds: seconds, baselineSeconds: baseline, metrics: phases.metrics.merging(rawVariants) { $1 })
    }

    // MARK: fetch-delete

    /// With N items stored, fetches them all and deletes each through a background context, then saves; the
    /// baseline reads every row of the table with a SELECT, then runs a prepared DELETE by id per row in one
    /// transaction. Storing the N items first is not timed.
    static func fetchDelete(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        let n = Int32(benchmarkCase.n)

        let baseline: Double
        var baselineCPU = 0.0
        if benchmarkCase.store == .postgres {
            let raw = try PostgresBaseline.open()
            try PostgresBaseline.insert(n, into: raw)
            let cpu = ResourceUsage.processCPUSeconds()
            baseline = try Stopwatch.seconds { try PostgresBaseline.fetchDelete(raw) }
            baselineCPU = ResourceUsage.processCPUSeconds() - cpu
            try PostgresBaseline.expect(raw, rows: 0, after: "the libpq fetch-delete")
        } else {
            let raw = try RawSQLite(benchmarkCase.store, in: benchmarkCase.directory)
            try raw.createItemTable()
            try rawInsert(n, into: raw)
            let cpu = ResourceUsage.processCPUSeconds()
            baseline = try Stopwatch.seconds { try rawFetchDelete(raw) }
            baselineCPU = ResourceUsage.processCPUSeconds() - cpu
            try expect(raw, rows: 0, after: "the raw fetch-delete")
        }

        let container = try benchmarkCase.store.container(schema: Item.schema, in: benchmarkCase.directory)
        try await storeItems(n, in: container)
        try await expect(container, rows: n, after: "storing the items to delete")
        try await benchmarkCase.settle()
        var phases = Phases()
        let cpu = ResourceUsage.processCPUSeconds()
        let seconds = try await Stopwatch.seconds {
            phases = try await container.performBackgroundTask { context in
                var phases = Phases()
                let items = try phases.time("fetch_ms") { try context.fetch(FetchRequest(Item.self)) }
                try phases.time("delete_ms") {
                    for item in items {
                        try context.delete(item)
                    }
                }
                let saveStart = ContinuousClock.now
                try await context.save()
                phases.record("save_ms", since: saveStart)
                return phases
            }
        }
        phases.cpu(stillpoint: ResourceUsage.processCPUSeconds() - cpu, baseline: baselineCPU)
        try await expect(container, rows: 0, after: "the fetch-delete")
        if benchmarkCase.store == .postgres { try container.close() }
        return Sample(seconds: seconds, baselineSeconds: baseline, metrics: phases.metrics)
    }

    /// The time of each phase of the measured work, and the CPU time of both sides, reported as extra metrics
    /// when `STILLPOINT_BENCH_PHASES=1` is set: for finding where the time goes. The phases are timed either way,
    /// at the cost of a clock read each.
    struct Phases: Sendable {
        static let reported = ProcessInfo.processInfo.environment["STILLPOINT_BENCH_PHASES"] == "1"
        private(set) var milliseconds: [String: Double] = [:]

        var metrics: [String: Double] { Self.reported ? milliseconds : [:] }

        mutating func time<T>(_ name: String, _ work: () throws -> T) rethrows -> T {
            let clock = ContinuousClock()
            let start = clock.now
            defer { milliseconds[name] = (clock.now - start).seconds * 1_000 }
            return try work()
        }

        mutating func record(_ name: String, since start: ContinuousClock.Instant) {
            milliseconds[name] = (ContinuousClock.now - start).seconds * 1_000
        }

        /// The process CPU time of both sides, which other processes competing for the cores barely affect.
        mutating func cpu(stillpoint: Double, baseline: Double) {
            milliseconds["cpu_ms"] = stillpoint * 1_000
            milliseconds["baseline_cpu_ms"] = baseline * 1_000
        }

        /// The CPU time of the PostgreSQL server's processes for both sides, which `cpu_ms` leaves out.
        mutating func serverCPU(stillpoint: Double, baseline: Double) {
            milliseconds["server_cpu_ms"] = stillpoint * 1_000
            milliseconds["baseline_server_cpu_ms"] = baseline * 1_000
        }
    }

    // MARK: Baselines

    /// Items with uids `0..<n`: one prepared INSERT stepped `n` times in one transaction.
    static func rawInsert(_ n: Int32, into raw: RawSQLite) throws {
        let sql = #"INSERT INTO "Item" ("uid", "title") VALUES (?, ?)"#
        try raw.execute("BEGIN")
        let statement = try raw.prepare(sql)
        defer { sqlite3_finalize(statement) }
        for uid in 0..<n {
            sqlite3_bind_int64(statement, 1, Int64(uid))
            sqlite3_bind_text(statement, 2, Item.title(uid), -1, RawSQLite.transient)
            try raw.stepDone(statement, sql)
        }
        try raw.execute("COMMIT")
    }

    /// Items with uids `0..<n`, saved once through a background context (the untimed set-up of the delete workloads).
    static func storeItems(_ n: Int32, in container: PersistentContainer) async throws {
        try await container.performBackgroundTask { context in
            for uid in 0..<n {
                let item = context.insert(Item.self)
                item[Item.uid] = uid
                item[Item.title] = Item.title(uid)
            }
            try await context.save()
        }
    }

    /// A row as the baseline reads it: every column, as a fetch of objects does.
    private struct RawItem {
        let id: Int64
        let version: Int64
        let uid: Int32
        let title: String
    }

    private static func rawFetchDelete(_ raw: RawSQLite) throws {
        let select = #"SELECT "_id", "_version", "uid", "title" FROM "Item""#
        var rows: [RawItem] = []
        let query = try raw.prepare(select)
        defer { sqlite3_finalize(query) }
        while true {
            let code = sqlite3_step(query)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw raw.failure(select) }
            let title = sqlite3_column_text(query, 3).map { String(cString: $0) } ?? ""
            rows.append(RawItem(id: sqlite3_column_int64(query, 0), version: sqlite3_column_int64(query, 1),
                                uid: Int32(truncatingIfNeeded: sqlite3_column_int64(query, 2)), title: title))
        }

        let delete = #"DELETE FROM "Item" WHERE "_id" = ?"#
        try raw.execute("BEGIN")
        let statement = try raw.prepare(delete)
        defer { sqlite3_finalize(statement) }
        for row in rows {
            sqlite3_bind_int64(statement, 1, row.id)
            try raw.stepDone(statement, delete)
        }
        try raw.execute("COMMIT")
    }

    // MARK: Checks (not timed)

    struct WrongRowCount: Error, CustomStringConvertible {
        let description: String
    }

    static func expect(_ raw: RawSQLite, rows expected: Int32, after step: String) throws {
        let count = try raw.integer(#"SELECT COUNT(*) FROM "Item""#)
        guard count == expected else { throw WrongRowCount(description: "\(step) left \(count) rows, not \(expected)") }
    }

    private static func expect(_ container: PersistentContainer, rows expected: Int32, after step: String) async throws {
        let count = try await container.performBackgroundTask { context in try context.count(for: FetchRequest(Item.self)) }
        guard count == expected else { throw WrongRowCount(description: "\(step) left \(count) rows, not \(expected)") }
    }

    // MARK: Table

    /// Seed 004's layout: per store, one column per workload and size, rows for Stillpoint, the baseline and
    /// their ratio; then the targets, met or missed.
    func table(of measurements: [Measurement], options: BenchmarkOptions) -> String {
        var sections = ["\(name): \(summary); median of \(options.runs) runs"]
        let workloadTitles = ["write": "Write", "fetch-delete": "Fetch-delete", "batch-delete": "Batch delete"]
        for store in StoreKind.allCases {
            let row = measurements.filter { $0.store == store }
            guard !row.isEmpty else { continue }
            let header = [""] + row.map { "\(workloadTitles[$0.workload] ?? $0.workload) \($0.n)" }
            let rows = [
                ["Stillpoint"] + row.map { ResultTable.seconds($0.seconds) },
                [store.baselineTitle] + row.map { $0.baselineSeconds.map(ResultTable.seconds) ?? "-" },
                ["ratio"] + row.map { $0.ratio.map(ResultTable.ratio) ?? "-" },
            ]
            let server = store == .postgres ? " (\(PostgresServer.settingsSummary()))" : ""
            sections.append("**\(store.title)**\(server)\n\n" + ResultTable.render(header: header, rows: rows))
        }
        var targets: [String] = []
        for workload in workloads {
            guard let target = workload.target else { continue }
            for measurement in measurements where measurement.workload == workload.name && measurement.n == target.n {
                // PostgreSQL has a target for the write only; the others are SQLite's.
                guard measurement.store != .postgres || workload.name == "write" else { continue }
                guard let ratio = measurement.ratio else { continue }
                let verdict = ratio <= target.maxRatio ? "met" : "MISSED"
                targets.append("- \(workload.name) \(target.n), \(measurement.store.rawValue): \(ResultTable.ratio(ratio)) "
                               + "(target within \(ResultTable.ratio(target.maxRatio))): \(verdict)")
            }
        }
        if !targets.isEmpty { sections.append("Targets:\n" + targets.joined(separator: "\n")) }
        return sections.joined(separator: "\n\n")
    }
}
