import Foundation
import GRDBSQLite
import StillpointCore
import StillpointSQLite
import Synchronization

/// The import benchmark: N session-like records through an ``ImportOperation`` on a
/// ``ContextOperationQueue`` into a SQLite file, against the raw SQLite C API inserting the same rows in the same
/// run, and the peak resident memory of the import.
///
/// Each side runs in a fresh child process of this binary (see ``SessionBench/ChildProcess``), one after the
/// other (which goes first alternates), so that `peak_rss_mb` is the import's own high-water mark (`VmHWM` of a process that did nothing else)
/// and neither side inherits the other's heap or page-cache state of the database it wrote.
///
/// On the `postgres` store the baseline is `COPY ... FROM STDIN` through libpq (``copyBaseline(_:)``), and both
/// children use the parent's server; `peak_rss_mb` is the client process's, not the server's.
struct ImportSuite: BenchmarkSuite {
    let name = "import"
    let summary = "N session records through ImportOperation vs a prepared INSERT ... ON CONFLICT DO NOTHING (COPY on postgres)"
    let sizes = [1_000_000]
    let stores: [StoreKind] = [.file]
    let smokeStores: [StoreKind] = [.file, .postgres]

    /// Records per key look-up and save on the Stillpoint side, and per transaction on the baseline's:
    /// `ImportOperation`'s default.
    static let batchSize = 1_000
    static let maxRatio = 2.0
    static let maxPeakMegabytes = 150.0
    /// Measurements made so far in this process, to alternate which side goes first.
    private static let measurements = Atomic<Int>(0)

    var workloads: [Workload] {
        [Workload(name: "import", target: .init(n: 1_000_000, maxRatio: Self.maxRatio), measure: Self.measure)]
    }

    static func measure(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        guard benchmarkCase.store == .file || benchmarkCase.store == .postgres else {
            throw SessionBench.Failure("the import suite measures a SQLite file store or PostgreSQL (--store file,postgres)")
        }
        switch SessionBench.ChildProcess.side {
        case "stillpoint"?: return try await stillpoint(benchmarkCase)
        case "baseline"? where benchmarkCase.store == .postgres: return try copyBaseline(benchmarkCase)
        case "baseline"?: return try baseline(benchmarkCase)
        case let other?: throw SessionBench.Failure("unknown \(SessionBench.ChildProcess.variable) '\(other)'; use stillpoint or baseline")
        case nil: break
        }
        func child(_ side: String) async throws -> [String: Double] {
            try await SessionBench.ChildProcess.measure(
                suite: "import", workload: "import", n: benchmarkCase.n, store: benchmarkCase.store, side: side,
                scratch: benchmarkCase.directory)
        }
        // Which side goes first alternates, so that neither always meets the other's leftovers (dirty pages being
        // written back, the neighbours' load).
        let baseline: [String: Double], stillpoint: [String: Double]
        if measurements.add(1, ordering: .relaxed).oldValue % 2 == 0 {
            baseline = try await child("baseline")
            stillpoint = try await child("stillpoint")
        } else {
            stillpoint = try await child("stillpoint")
            baseline = try await child("baseline")
        }
        var metrics: [String: Double] = [:]
        metrics["peak_rss_mb"] = stillpoint["peak_rss_mb"]
        metrics["baseline_peak_rss_mb"] = baseline["peak_rss_mb"]
        metrics["cpu_ms"] = stillpoint["cpu_ms"]
        metrics["baseline_cpu_ms"] = baseline["cpu_ms"]
        if let single = baseline["single_copy_ms"] { metrics["single_copy_ms"] = single }
        if let server = stillpoint["server_cpu_ms"] { metrics["server_cpu_ms"] = server }
        if let server = baseline["server_cpu_ms"] { metrics["baseline_server_cpu_ms"] = server }
        return Sample(seconds: stillpoint["seconds"] ?? .nan, baselineSeconds: baseline["seconds"], metrics: metrics)
    }

    // MARK: Stillpoint

    /// One `ImportOperation` of records `0 ..< n`, generated on the fly, on a queue; timed from enqueueing to
    /// its result. Opening the store is not timed.
    private static func stillpoint(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        let n = benchmarkCase.n
        let container = try benchmarkCase.store.container(schema: SessionBench.Record.schema, in: benchmarkCase.directory)
        let queue = ContextOperationQueue(container: container, name: "import")
        let operation = ImportOperation(entity: SessionBench.Record.entity, key: ["key"], batchSize: batchSize,
                                        identifier: "import") {
            SessionBench.GeneratedSource(0..<n)
        }
        var summary = ImportSummary()
        let server = benchmarkCase.store == .postgres ? PostgresServer.backendCPU() : [:]
        let cpu = ResourceUsage.processCPUSeconds()
        let seconds = try await Stopwatch.seconds {
            queue.addOperation(operation)
            summary = try await operation.value
        }
        let cpuSeconds = ResourceUsage.processCPUSeconds() - cpu
        let peak = ResourceUsage.peakResidentMegabytes()
        let serverSeconds = PostgresServer.serverCPUSeconds(since: server)

        guard summary.recordsRead == n, summary.inserted == n, summary.skipped == 0 else {
            throw SessionBench.Failure("the import read \(summary.recordsRead), inserted \(summary.inserted) and skipped "
                                       + "\(summary.skipped) of \(n) records")
        }
        let count = try await container.performBackgroundTask { context in
            try context.count(for: FetchRequest(SessionBench.Record.self))
        }
        guard count == n else { throw SessionBench.Failure("the import left \(count) rows, not \(n)") }
        try container.close()
        var metrics = ["peak_rss_mb": peak ?? .nan, "cpu_ms": cpuSeconds * 1_000, "batches": Double(summary.batchesSaved)]
        if benchmarkCase.store == .postgres { metrics["server_cpu_ms"] = serverSeconds * 1_000 }
        return Sample(seconds: seconds, metrics: metrics)
    }

    // MARK: Baseline

    /// One prepared `INSERT ... ON CONFLICT ("key") DO NOTHING` stepped for each record, one transaction per
    /// batch of the same size, into a store whose table Stillpoint made. Making the store is not timed.
    private static func baseline(_ benchmarkCase: BenchmarkCase) throws -> Sample {
        let n = benchmarkCase.n
        _ = try SessionBench.makeEmptyStore(in: benchmarkCase.directory)
        let raw = try RawSQLite(.file, in: benchmarkCase.directory)
        let sql = SessionBench.insertSQL + #" ON CONFLICT ("key") DO NOTHING"#
        let cpu = ResourceUsage.processCPUSeconds()
        let seconds = try Stopwatch.seconds {
            let statement = try raw.prepare(sql)
            defer { sqlite3_finalize(statement) }
            var start = 0
            while start < n {
                let end = min(start + batchSize, n)
                try raw.execute("BEGIN")
                for index in start..<end {
                    try SessionBench.insertRow(index, with: statement, on: raw, sql: sql)
                }
                try raw.execute("COMMIT")
                start = end
            }
        }
        let cpuSeconds = ResourceUsage.processCPUSeconds() - cpu
        let peak = ResourceUsage.peakResidentMegabytes()
        let count = try raw.integer(#"SELECT COUNT(*) FROM "LoggedSession""#)
        guard count == n else { throw SessionBench.Failure("the raw import left \(count) rows, not \(n)") }
        return Sample(seconds: seconds, metrics: ["peak_rss_mb": peak ?? .nan, "cpu_ms": cpuSeconds * 1_000])
    }

    // MARK: Table

    func table(of measurements: [Measurement], options: BenchmarkOptions) -> String {
        var text = ResultTable.generic(
            measurements,
            title: "\(name): \(summary); median of \(options.runs) runs, each side in a fresh process, batches of \(Self.batchSize)")
        if measurements.contains(where: { $0.store == .postgres }) {
            text += "\n\npostgres: the baseline is COPY FROM STDIN through libpq, one COPY and transaction per batch; "
                + "single_copy_ms is one COPY of all N rows. Server: \(PostgresServer.settingsSummary())."
        }
        var verdicts: [String] = []
        let stores = Set(measurements.map(\.store))
        for measurement in measurements where measurement.n == 1_000_000 {
            let store = stores.count > 1 ? " (\(measurement.store.rawValue))" : ""
            if let ratio = measurement.ratio {
                verdicts.append("- time\(store): \(ResultTable.ratio(ratio)) of the baseline (target within \(ResultTable.ratio(Self.maxRatio))): "
                                + (ratio <= Self.maxRatio ? "met" : "MISSED"))
            }
            if let peak = measurement.metric("peak_rss_mb") {
                verdicts.append("- peak resident memory\(store): \(String(format: "%.1f", peak)) MB (target under \(Int(Self.maxPeakMegabytes)) MB): "
                                + (peak < Self.maxPeakMegabytes ? "met" : "MISSED"))
            }
        }
        if !verdicts.isEmpty { text += "\n\nTargets:\n" + verdicts.joined(separator: "\n") }
        return text
    }
}
