import Foundation
import PracticeLog
import StillpointCatalog
import StillpointCore
import StillpointManifest
import StillpointReport
import StillpointSQLite
import StillpointStatistics
import Synchronization

/// The report benchmark: the default manifest over N demo sessions (ten years, ending today) through
/// ``ReportRunner``, every statistic at once, against hand-written raw SQLite computing the same numbers in the
/// same run (see ``RawStatistics``), and against DuckDB computing them in SQL over the same rows (see
/// ``DuckDBPeer``; when the Python module `duckdb` is installed).
///
/// Both sides run the statistics concurrently on the same number of threads: the runner's queue runs
/// `activeProcessorCount` statistics at a time (its default), each in its own background context and read
/// transaction; the baseline runs the same statistics, in manifest order, on as many threads, each with its own
/// connection, each thread taking the next statistic when it finishes one. The Stillpoint side is timed from
/// reading the manifest (`Manifest(yaml:)`, `prepare(catalog:)`) to the finished report; the baseline from
/// starting its threads (which open their connections) to the last result. Building the store is not timed.
///
/// After each run every statistic's numbers are compared (not timed), and any difference fails the run; in
/// particular `session_count`, `total_time`, `active_days`, `current_streak` and `longest_streak`, whose values
/// are also reported. With `STILLPOINT_BENCH_PHASES=1`, each statistic is also run alone on each side, one after
/// the other, three times, and its least CPU time reported (`stat_<name>_ms`, `raw_<name>_ms`, and the user part,
/// `stat_<name>_user_ms`, `raw_<name>_user_ms`): which statistics the difference comes from. With
/// `STILLPOINT_BENCH_SIDE=stillpoint` (or `baseline`) only that side runs and nothing is compared: for profiling
/// one side.
struct ReportSuite: BenchmarkSuite {
    let name = "report"
    let summary = "the default manifest over N demo sessions through ReportRunner vs hand-written raw SQLite and DuckDB"
    let sizes = [1_000_000]
    let stores: [StoreKind] = [.file]

    static let maxRatio = 1.5
    /// The bar that counts: DuckDB over the same rows, in the same run.
    static let maxDuckDBRatio = 1.5
    /// The statistics the issue asks to check; every other one is compared as well.
    static let checked = ["session_count", "total_time", "active_days", "current_streak", "longest_streak"]
    static let reportsPhases = ProcessInfo.processInfo.environment["STILLPOINT_BENCH_PHASES"] == "1"
    /// Measurements made so far in this process, to alternate which side goes first.
    private static let measurements = Atomic<Int>(0)

    var workloads: [Workload] {
        [Workload(name: "report", target: .init(n: 1_000_000, maxRatio: Self.maxRatio), measure: Self.measure),
         Workload(name: "refresh", measure: Self.measureRefresh)]
    }

    static func measure(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        guard benchmarkCase.store == .file else {
            throw SessionBench.Failure("the report suite reads a SQLite file store only (--store file)")
        }
        let fixture = try await Fixture.shared.store(sessions: benchmarkCase.n)
        let catalog = try BuiltInStatistics.catalog()
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let container = try PersistentContainer(schema: Session.schema, location: .file(fixture.url))

        // For profiling one side alone: STILLPOINT_BENCH_SIDE=stillpoint or baseline (then nothing is compared).
        let side = SessionBench.ChildProcess.side
        // `as_of: now` is read once for both sides: a session starting between two readings would count on one
        // side only. The manifest is otherwise used as it is.
        let asOf = Date()
        @Sendable func manifest() throws -> Manifest {
            var manifest = try Manifest(yaml: DefaultManifest.yaml, file: "DefaultManifest.yaml")
            manifest.environment.asOf = asOf
            return manifest
        }
        // The baseline's computations, from the same prepared entries (not timed).
        let jobs = try manifest().prepare(catalog: catalog).map(RawStatistics.job)

        var entryCount = jobs.count
        var report: Report?
        var seconds = Double.nan
        var cpuSeconds = Double.nan
        var peakMegabytes: Double?
        func runStillpoint() async throws {
            // The peak of the report alone: the baseline's arrays, when it ran first, are gone by now.
            let resetPeak = ResourceUsage.resetPeak()
            defer { peakMegabytes = resetPeak ? ResourceUsage.peakResidentMegabytes() : nil }
            let cpu = ResourceUsage.processCPUSeconds()
            seconds = try await Stopwatch.seconds {
                let manifest = try manifest()
                let entries = try manifest.prepare(catalog: catalog)
                entryCount = entries.count
                let runner = ReportRunner(container: container, maxConcurrentStatistics: threads)
                report = await runner.run(entries, environment: manifest.environment)
            }
            cpuSeconds = ResourceUsage.processCPUSeconds() - cpu
        }
        var raw: [String: [Double]] = [:]
        var baseline: Double?
        var baselineCPUSeconds = Double.nan
        func runBaseline() async throws {
            let cpu = ResourceUsage.processCPUSeconds()
            baseline = try await Stopwatch.seconds {
                raw = try await RawStatistics.run(jobs, threads: threads, store: fixture.directory)
            }
            baselineCPUSeconds = ResourceUsage.processCPUSeconds() - cpu
        }
        // Which side goes first alternates from one measurement to the next, so that neither always finds the
        // caches (and the neighbours' load) as the other left them.
        if Self.measurements.add(1, ordering: .relaxed).oldValue % 2 == 0 {
            if side != "baseline" { try await runStillpoint() }
            if side != "stillpoint" { try await runBaseline() }
        } else {
            if side != "stillpoint" { try await runBaseline() }
            if side != "baseline" { try await runStillpoint() }
        }

        if side == nil {
            guard let report else { throw SessionBench.Failure("the runner returned no report") }
            try compare(report, raw)
        }
        var peer: DuckDBPeer.Outcome?
        if side == nil, DuckDBPeer.unavailable == nil, let report {
            peer = try await DuckDBPeer.run(store: fixture.url, environment: try manifest().environment, threads: threads,
                                            scratch: benchmarkCase.directory)
            try DuckDBPeer.compare(report, peer?.values ?? [:])
        }

        var metrics: [String: Double] = [
            "cpu_ms": cpuSeconds * 1_000, "baseline_cpu_ms": baselineCPUSeconds * 1_000, "threads": Double(threads),
            "statistics": Double(entryCount), "fixture_build_seconds": fixture.buildSeconds,
            "fixture_duplicate_keys": Double(fixture.duplicateKeys),
        ]
        if let peakMegabytes { metrics["peak_rss_mb"] = peakMegabytes }
        if let peer {
            metrics["duckdb_ms"] = peer.seconds * 1_000
            metrics["duckdb_load_ms"] = peer.loadSeconds * 1_000
            metrics["duckdb_ratio"] = seconds / peer.seconds
        }
        for name in checked {
            metrics[name] = report?.value(of: name).map(numbers)?.first ?? raw[name]?.first
        }
        if reportsPhases {
            let connection = try RawSQLite(.file, in: fixture.directory)
            // CPU time rather than wall time, since one statistic runs at a time: the process's CPU time is then the
            // statistic's, and other processes competing for the cores barely change it. User time apart, because
            // the system time (SQLite's page reads, copied from the page cache) is the same work on both sides but
            // varies a lot from run to run. The least of three runs of each side, the two sides taking turns.
            for (entry, job) in zip(try manifest().prepare(catalog: catalog), jobs) {
                let prepared = entry.prepared
                var stillpoint = (total: Double.infinity, user: Double.infinity)
                var rawCPU = (total: Double.infinity, user: Double.infinity)
                for _ in 0..<3 {
                    var start = CPUTimes()
                    _ = try await container.performBackgroundTask { context in
                        try context.withPinnedSnapshot { try prepared.compute(context) }
                    }
                    var end = CPUTimes()
                    stillpoint = (min(stillpoint.total, end.total - start.total), min(stillpoint.user, end.user - start.user))
                    start = CPUTimes()
                    _ = try RawStatistics.runInTransaction(on: connection) { try job.compute(try RawStatistics.scan(connection)) }
                    end = CPUTimes()
                    rawCPU = (min(rawCPU.total, end.total - start.total), min(rawCPU.user, end.user - start.user))
                }
                metrics["stat_\(entry.name)_ms"] = stillpoint.total * 1_000
                metrics["stat_\(entry.name)_user_ms"] = stillpoint.user * 1_000
                metrics["raw_\(entry.name)_ms"] = rawCPU.total * 1_000
                metrics["raw_\(entry.name)_user_ms"] = rawCPU.user * 1_000
            }
        }
        try container.close()
        return Sample(seconds: side == "baseline" ? baseline ?? .nan : seconds, baselineSeconds: baseline, metrics: metrics)
    }

    /// The process's user and user + system CPU time so far, in seconds (`getrusage`).
    struct CPUTimes {
        let user: Double
        let total: Double

        init() {
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) * 1e-6 }
            user = seconds(usage.ru_utime)
            total = user + seconds(usage.ru_stime)
        }
    }

    // MARK: Checking

    /// The numbers of a statistic's value, in order: quantities, days as day numbers, records field by field,
    /// lists item by item; no value is no number.
    static func numbers(_ value: StatisticValue) -> [Double] {
        switch value {
        case .none, .text: return []
        case .quantity(let number, _): return [number]
        case .day(let day): return [Double(day.dayNumber)]
        case .record(let fields): return fields.flatMap { numbers($0.value) }
        case .list(let values): return values.flatMap(numbers)
        }
    }

    /// Fails unless every statistic of the report finished with the numbers the baseline computed.
    private static func compare(_ report: Report, _ raw: [String: [Double]]) throws {
        var differences: [String] = []
        for entry in report.entries {
            guard case .finished(let result) = entry.outcome else {
                differences.append("\(entry.name) did not finish: \(entry.outcome)")
                continue
            }
            let stillpoint = numbers(result.value)
            guard let baseline = raw[entry.name] else {
                differences.append("\(entry.name) has no baseline value")
                continue
            }
            let same = stillpoint.count == baseline.count && zip(stillpoint, baseline).allSatisfy { a, b in
                abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
            }
            if !same {
                differences.append("\(entry.name): Stillpoint \(stillpoint.prefix(12)) (\(stillpoint.count) numbers), "
                                   + "baseline \(baseline.prefix(12)) (\(baseline.count) numbers)")
            }
        }
        for name in checked where !report.entries.contains(where: { $0.name == name }) {
            differences.append("the manifest has no \(name) to check")
        }
        guard differences.isEmpty else {
            throw SessionBench.Failure("Stillpoint and the raw baseline disagree:\n  " + differences.joined(separator: "\n  "))
        }
    }

    // MARK: Table

    func table(of measurements: [Measurement], options: BenchmarkOptions) -> String {
        let main = measurements.map { measurement in
            Measurement(suite: measurement.suite, workload: measurement.workload, n: measurement.n, store: measurement.store,
                        seconds: measurement.seconds, baselineSeconds: measurement.baselineSeconds,
                        metrics: measurement.metrics.filter { !$0.key.hasPrefix("stat_") && !$0.key.hasPrefix("raw_") })
        }
        var sections = [ResultTable.generic(main, title: "\(name): \(summary); median of \(options.runs) runs")]
        for measurement in measurements {
            let rows: [[String]] = measurement.metrics.compactMap { key, user in
                guard key.hasPrefix("stat_"), key.hasSuffix("_user_ms") else { return nil }
                let name = String(key.dropFirst(5).dropLast(8))
                guard let total = measurement.metric("stat_\(name)_ms"), let rawUser = measurement.metric("raw_\(name)_user_ms"),
                      let rawTotal = measurement.metric("raw_\(name)_ms") else { return nil }
                func ratio(_ a: Double, _ b: Double) -> String { b > 0 ? ResultTable.ratio(a / b) : "-" }
                return [name, String(format: "%.0f", user), String(format: "%.0f", rawUser), ratio(user, rawUser),
                        String(format: "%.0f", total), String(format: "%.0f", rawTotal), ratio(total, rawTotal)]
            }
            if !rows.isEmpty {
                sections.append("CPU time of each statistic alone, least of 3 runs per side (STILLPOINT_BENCH_PHASES=1), n = \(measurement.n):\n\n"
                                + ResultTable.render(header: ["statistic", "Stillpoint user ms", "raw user ms", "ratio",
                                                              "Stillpoint user+sys ms", "raw user+sys ms", "ratio"], rows: rows))
            }
        }
        var verdicts: [String] = []
        for measurement in measurements where measurement.n == 1_000_000 && measurement.workload == "refresh" {
            verdicts.append("- refresh after one new session: \(String(format: "%.1f", measurement.seconds * 1_000)) ms "
                            + "(target under \(String(format: "%.0f", Self.maxRefreshSeconds * 1_000)) ms): "
                            + (measurement.seconds < Self.maxRefreshSeconds ? "met" : "MISSED"))
        }
        for measurement in measurements where measurement.n == 1_000_000 && measurement.workload == "report" {
            if let peak = measurement.metric("peak_rss_mb") {
                verdicts.append("- peak RSS of the report: \(String(format: "%.0f", peak)) MB (target under 150 MB): "
                                + (peak < 150 ? "met" : "MISSED"))
            }
            if let ratio = measurement.ratio {
                verdicts.append("- time: \(ResultTable.ratio(ratio)) of the baseline (target within \(ResultTable.ratio(Self.maxRatio))): "
                                + (ratio <= Self.maxRatio ? "met" : "MISSED"))
            }
        }
        for measurement in measurements where measurement.n == 1_000_000 && measurement.workload == "report" {
            if let ratio = measurement.metric("duckdb_ratio") {
                verdicts.append("- time: \(ResultTable.ratio(ratio)) of DuckDB's for the same statistics (target within "
                                + "\(ResultTable.ratio(Self.maxDuckDBRatio))): " + (ratio <= Self.maxDuckDBRatio ? "met" : "MISSED"))
            } else {
                verdicts.append("- DuckDB: not measured: \(DuckDBPeer.unavailable ?? "the peer did not run")")
            }
        }
        verdicts.append("- values: every statistic equal on both sides, and every statistic DuckDB computes equal to "
                        + "Stillpoint's (checked after each run; a difference fails the run)")
        sections.append("Targets:\n" + verdicts.joined(separator: "\n"))
        return sections.joined(separator: "\n\n")
    }
}
