import Foundation
import PracticeLog
import StillpointCatalog
import StillpointCore
import StillpointManifest
import StillpointReport
import StillpointStatistics
import Synchronization

/// Issue 23's benchmark: many practitioners in one store, each with a report that stays current, on PostgreSQL
/// and SQLite, against the same report in PostgreSQL SQL (``SQLPeer``) and in DuckDB
/// (`Benchmarks/Peers/duckdb_practitioners.py`) over the same rows, in the same run.
///
/// The data (``PractitionerData``): N practitioners over ten years in five zones, about 2,100 sessions each,
/// loaded through the import path, one run per practitioner. The report: count, total, average, median and
/// longest session, active days, current and longest streak, weekday and hour rhythm (``manifestYAML``). Every
/// number of every report a workload makes is checked against both peers' (not timed): a difference fails it.
///
/// | workload | Stillpoint (`seconds`) | baseline (`baseline_seconds`) and peers |
/// |---|---|---|
/// | `load` | the import of every practitioner's file | `COPY` of the same rows (PostgreSQL), prepared `INSERT`s (SQLite) |
/// | `all-reports` | `AllPractitionerReports` (`report --all-practitioners`) | the SQL statement per practitioner; DuckDB grouped |
/// | `one-cold` | p50 of one report, no digest in memory | SQL p50; DuckDB p50 (p99s as metrics) |
/// | `after-insert` | p50 of one report after one new session, digest in memory | the same after the same insert |
/// | `runner-memory` | reporting on every practitioner with one `PractitionerReports` | none: its memory is the measure |
struct PractitionersSuite: BenchmarkSuite {
    let name = "practitioners"
    let summary = "N practitioners' reports (issue 23) vs PostgreSQL SQL and DuckDB over the same rows"
    let sizes = [1_000]
    let stores: [StoreKind] = [.postgres, .file]
    /// 20 practitioners of about 210 sessions each.
    let smokeSize = 20

    /// How many practitioners the one-report workloads time, spread evenly over the ids.
    static let sampled = 100

    var workloads: [Workload] {
        [Workload(name: "load", measure: Self.measureLoad),
         Workload(name: "all-reports", measure: Self.measureAllReports),
         Workload(name: "one-cold", measure: Self.measureOneCold),
         Workload(name: "after-insert", measure: Self.measureAfterInsert),
         Workload(name: "runner-memory", measure: Self.measureRunnerMemory)]
    }

    /// The per-practitioner report the peers compute too, made at the data's fixed instant, days in UTC.
    static let manifestYAML = """
        version: 1
        time_zone: UTC
        day_starts_at: 0
        as_of: now
        statistics:
          - id: session_count
          - id: total_time
          - id: average_session_time
          - id: median_session_time
          - id: longest_session
          - id: active_days
          - id: current_streak
          - id: longest_streak
          - id: sessions_by_weekday
          - id: sessions_by_hour
        """

    static func prepared() throws -> (entries: [PreparedEntry], environment: ReportEnvironment) {
        var manifest = try Manifest(yaml: manifestYAML, file: "practitioners.yaml")
        manifest.environment.asOf = PractitionerData.asOf
        return (try manifest.prepare(catalog: try BuiltInStatistics.catalog()), manifest.environment)
    }

    /// Each statistic's numbers, flattened as ``ReportSuite/numbers(_:)`` does; a statistic that failed fails.
    static func values(_ report: Report, of id: String) throws -> [String: [Double]] {
        var values: [String: [Double]] = [:]
        for entry in report.entries {
            guard case .finished(let result) = entry.outcome else {
                throw SessionBench.Failure("\(id)'s \(entry.name) did not finish: \(entry.outcome)")
            }
            values[entry.id] = ReportSuite.numbers(result.value)
        }
        return values
    }

    /// The practitioners the one-report workloads time: up to ``sampled``, spread over the ids.
    static func sample(_ n: Int, count: Int = sampled) -> [String] {
        let taken = min(n, count)
        return (0..<taken).map { PractitionerData.id($0 * n / taken) }
    }

    // MARK: Workloads

    static func measureLoad(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        let n = benchmarkCase.n
        let loaded = try await Fixture.shared.loaded(n, benchmarkCase.store, fresh: true)
        let baseline = benchmarkCase.store == .postgres
            ? try await Fixture.shared.peers(n, fresh: true).copySeconds
            : try Fixture.rawSQLiteLoad(Fixture.data(n), in: benchmarkCase.directory)
        return Sample(seconds: loaded.seconds, baselineSeconds: baseline, metrics: [
            "sessions": Double(loaded.sessions), "sessions_per_s": Double(loaded.sessions) / loaded.seconds,
        ])
    }

    static func measureAllReports(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        let n = benchmarkCase.n
        let loaded = try await Fixture.shared.loaded(n, benchmarkCase.store)
        let peers = try await Fixture.shared.peers(n)
        let (entries, environment) = try prepared()
        let container = try loaded.open()
        defer { try? container.close() }
        let collected = Mutex<[String: [String: [Double]]]>([:])
        let failure = Mutex<(any Error)?>(nil)
        let resetPeak = ResourceUsage.resetPeak()
        let cpuBefore = ResourceUsage.processCPUSeconds()
        let seconds = try await Stopwatch.seconds {
            try await AllPractitionerReports.run(entries, environment: environment, in: container) { id, report in
                do {
                    let numbers = try Self.values(report, of: id)
                    collected.withLock { $0[id] = numbers }
                } catch {
                    failure.withLock { $0 = error }
                }
            }
        }
        let cpu = ResourceUsage.processCPUSeconds() - cpuBefore
        let peak = resetPeak ? ResourceUsage.peakResidentMegabytes() : nil
        if let error = failure.withLock({ $0 }) { throw error }
        let ours = collected.withLock { $0 }
        guard ours.count == n else { throw SessionBench.Failure("the batch made \(ours.count) reports, not \(n)") }

        let sql = try SQLPeer(uri: peers.copyDatabase)
        var sqlSeconds = 0.0
        var theirs: [String: [String: [Double]]] = [:]
        for number in 0..<n {
            let id = PractitionerData.id(number)
            let (time, values) = try sql.report(id)
            sqlSeconds += time
            theirs[id] = values
        }
        try compare(ours, theirs, peer: "PostgreSQL SQL")
        var metrics: [String: Double] = [
            "practitioners_per_s": Double(n) / seconds, "sql_practitioners_per_s": Double(n) / sqlSeconds,
            "sessions": Double(peers.sessions),
            // This process's CPU only (on PostgreSQL the server's share is not in it): steady under a loaded machine.
            "cpu_s": cpu, "cpu_practitioners_per_s": Double(n) / max(cpu, 1e-9),
        ]
        if let peak { metrics["peak_rss_mb"] = peak }
        if let duck = try await DuckDBPeer.run(peers, mode: "all", lines: [], scratch: benchmarkCase.directory) {
            try compare(ours, duck.values, peer: "DuckDB")
            metrics["duckdb_seconds"] = duck.seconds
            metrics["duckdb_practitioners_per_s"] = Double(n) / duck.seconds
            metrics["duckdb_ratio"] = seconds / duck.seconds
        }
        return Sample(seconds: seconds, baselineSeconds: sqlSeconds, metrics: metrics)
    }

    static func measureOneCold(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        let loaded = try await Fixture.shared.loaded(benchmarkCase.n, benchmarkCase.store)
        let peers = try await Fixture.shared.peers(benchmarkCase.n)
        let (entries, environment) = try prepared()
        let container = try loaded.open()
        defer { try? container.close() }
        let ids = sample(benchmarkCase.n)
        var times: [Double] = []
        var ours: [String: [String: [Double]]] = [:]
        let cpuBefore = ResourceUsage.processCPUSeconds()
        for id in ids {
            // A runner of its own: the practitioner's digest is read from the store.
            let reports = PractitionerReports(container: container)
            var report: Report?
            times.append(try await Stopwatch.seconds { report = try await reports.report(for: id, entries, environment: environment) })
            guard let report else { throw SessionBench.Failure("the store has no practitioner \(id)") }
            ours[id] = try values(report, of: id)
        }
        let cpuPerReport = (ResourceUsage.processCPUSeconds() - cpuBefore) / Double(max(ids.count, 1))
        let sql = try SQLPeer(uri: peers.copyDatabase)
        var sqlTimes: [Double] = []
        var theirs: [String: [String: [Double]]] = [:]
        for id in ids {
            let (time, values) = try sql.report(id)
            sqlTimes.append(time)
            theirs[id] = values
        }
        try compare(ours, theirs, peer: "PostgreSQL SQL")
        var metrics = percentiles(times, "").merging(percentiles(sqlTimes, "sql_")) { a, _ in a }
        if let duck = try await DuckDBPeer.run(peers, mode: "one", lines: ids, scratch: benchmarkCase.directory) {
            try compare(ours, duck.values, peer: "DuckDB")
            metrics.merge(percentiles(duck.times, "duckdb_")) { a, _ in a }
        }
        metrics["sampled"] = Double(ids.count)
        metrics["cpu_ms_per_report"] = cpuPerReport * 1_000
        return Sample(seconds: percentile(times, 0.5), baselineSeconds: percentile(sqlTimes, 0.5), metrics: metrics)
    }

    static func measureAfterInsert(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        let loaded = try await Fixture.shared.loaded(benchmarkCase.n, benchmarkCase.store)
        let peers = try await Fixture.shared.peers(benchmarkCase.n)
        let (entries, environment) = try prepared()
        let container = try loaded.open()
        defer { try? container.close() }
        let ids = sample(benchmarkCase.n)
        let reports = PractitionerReports(container: container)
        let sql = try SQLPeer(uri: peers.copyDatabase)
        // One new session each, an hour before the reports' instant: today, in every zone's day.
        let start = PractitionerData.asOf.timeIntervalSince1970 - 3_600
        @Sendable func key(_ id: String) -> String { "bench-new-\(id)" }
        var times: [Double] = [], sqlTimes: [Double] = []
        var ours: [String: [String: [Double]]] = [:], theirs: [String: [String: [Double]]] = [:]
        var lines: [String] = []
        do {
            for (index, id) in ids.enumerated() {
                let zone = PractitionerData.zone(index * benchmarkCase.n / ids.count)
                let duration = Double(600 + index)
                _ = try await reports.report(for: id, entries, environment: environment)  // the digest in memory
                try await container.performBackgroundTask { context in
                    let session = context.insert(Session.self)
                    try session.set(Session.practitioner, to: try Practitioners.object(id, in: context))
                    session[Session.start] = Date(timeIntervalSince1970: start)
                    session[Session.duration] = duration
                    session[Session.timeZone] = zone
                    session[Session.source] = "csv"
                    session[Session.key] = key(id)
                    try await context.save()
                }
                var report: Report?
                times.append(try await Stopwatch.seconds { report = try await reports.report(for: id, entries, environment: environment) })
                guard let report else { throw SessionBench.Failure("the store has no practitioner \(id)") }
                ours[id] = try values(report, of: id)
                try sql.insert(id, start: start, duration: duration, zone: zone, key: key(id))
                let (time, values) = try sql.report(id)
                sqlTimes.append(time)
                theirs[id] = values
                lines.append("\(id),\(start),\(duration),\(zone)")
            }
        } catch {
            try? await removeNewSessions(ids.map(key), from: container, sql)
            throw error
        }
        try await removeNewSessions(ids.map(key), from: container, sql)
        try compare(ours, theirs, peer: "PostgreSQL SQL")
        var metrics = percentiles(times, "").merging(percentiles(sqlTimes, "sql_")) { a, _ in a }
        if let duck = try await DuckDBPeer.run(peers, mode: "insert", lines: lines, scratch: benchmarkCase.directory) {
            try compare(ours, duck.values, peer: "DuckDB")
            metrics.merge(percentiles(duck.times, "duckdb_")) { a, _ in a }
        }
        metrics["sampled"] = Double(ids.count)
        return Sample(seconds: percentile(times, 0.5), baselineSeconds: percentile(sqlTimes, 0.5), metrics: metrics)
    }

    /// Takes the sessions `after-insert` added out of both stores again, so that every run reads the same rows.
    private static func removeNewSessions(_ keys: [String], from container: PersistentContainer, _ sql: SQLPeer) async throws {
        try await container.performBackgroundTask { context in
            for key in keys {
                for session in try context.fetch(FetchRequest(Session.self, predicate: try FetchPredicate("key == %@", key))) {
                    try context.delete(session)
                }
            }
            try await context.save()
        }
        try sql.remove(keys: keys)
    }

    static func measureRunnerMemory(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        let loaded = try await Fixture.shared.loaded(benchmarkCase.n, benchmarkCase.store)
        let (entries, environment) = try prepared()
        let container = try loaded.open()
        defer { try? container.close() }
        let reports = PractitionerReports(container: container)
        let before = ResourceUsage.residentMegabytes()
        let seconds = try await Stopwatch.seconds {
            for number in 0..<benchmarkCase.n {
                _ = try await reports.report(for: PractitionerData.id(number), entries, environment: environment)
            }
        }
        let after = ResourceUsage.residentMegabytes()
        guard reports.held.count == benchmarkCase.n else {
            throw SessionBench.Failure("the runner holds \(reports.held.count) digests, not \(benchmarkCase.n)")
        }
        var metrics: [String: Double] = ["digests": Double(reports.held.count), "sessions": Double(loaded.sessions)]
        if let before, let after {
            metrics["rss_mb"] = after
            metrics["rss_growth_mb"] = after - before
            metrics["bytes_per_session"] = (after - before) * 1_048_576 / Double(max(loaded.sessions, 1))
        }
        return Sample(seconds: seconds, metrics: metrics)
    }

    // MARK: Checking and statistics

    /// Fails unless every practitioner's every statistic has the same numbers on both sides.
    static func compare(_ ours: [String: [String: [Double]]], _ theirs: [String: [String: [Double]]], peer: String) throws {
        var differences: [String] = []
        for (id, values) in ours.sorted(by: { $0.key < $1.key }) {
            guard let other = theirs[id] else {
                differences.append("\(id): \(peer) has no report")
                continue
            }
            for (name, numbers) in values.sorted(by: { $0.key < $1.key }) {
                let them = other[name] ?? []
                let same = numbers.count == them.count && zip(numbers, them).allSatisfy { a, b in
                    abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
                }
                if !same { differences.append("\(id) \(name): Stillpoint \(numbers.prefix(8)), \(peer) \(them.prefix(8))") }
            }
        }
        guard differences.isEmpty else {
            throw SessionBench.Failure("Stillpoint and \(peer) disagree (\(differences.count)):\n  "
                                       + differences.prefix(10).joined(separator: "\n  "))
        }
    }

    /// The value below which a share `p` of `values` lie (nearest rank).
    static func percentile(_ values: [Double], _ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, max(0, Int((p * Double(sorted.count)).rounded(.up)) - 1))]
    }

    static func percentiles(_ values: [Double], _ prefix: String) -> [String: Double] {
        ["\(prefix)p50_ms": percentile(values, 0.5) * 1_000, "\(prefix)p99_ms": percentile(values, 0.99) * 1_000]
    }
}
