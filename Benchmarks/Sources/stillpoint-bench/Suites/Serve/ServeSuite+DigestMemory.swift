import CMallocStatistics
import Foundation
import PracticeLog
import StillpointCatalog
import StillpointCore
import StillpointManifest
import StillpointReport
import StillpointStatistics

extension ServeSuite {
    /// `digest-memory`: what the service holds per practitioner, measured in this process without the HTTP stack.
    /// A ``LiveReports`` made as `stillpoint-server` makes it (the default manifest, the built-in statistics) warms
    /// every practitioner's JSON report, as `warm-all` does over HTTP; then the heap in use (glibc's `mallinfo2`,
    /// after `malloc_trim`) and the resident size are read against what they were before, and the two parts the
    /// service counts itself (`/metrics`: the digests' session columns and the rendered reports) are set against
    /// the whole. The rest is what a profile (heaptrack) attributes; `Benchmarks/README.md` has the breakdown.
    ///
    /// Metrics, per practitioner in bytes unless said: `heap_per_practitioner` (the heap's growth),
    /// `rss_per_practitioner`, `digest_columns`, `rendered`, `other` (the heap's growth less those two), and the
    /// totals `heap_mb`, `rss_mb` (the process after warming) and `projected_10k_mb` (the resident size before
    /// warming plus 10,000 times the resident growth per practitioner).
    static func measureDigestMemory(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        let n = benchmarkCase.n
        let container = try await digestMemoryStore(n, benchmarkCase.store)
        defer { try? container.close() }
        let manifest = try Manifest(yaml: DefaultManifest.yaml, file: "the default manifest")
        let live = LiveReports(container: container, manifests: [LiveReports.defaultManifest: manifest],
                               modules: ModuleCatalog(BuiltInStatistics.modules))
        // The service's own structures, and a first report's one-time costs (zone data, statement caches), before
        // the baseline is read: one practitioner warmed and counted as part of the baseline.
        guard try await live.report(for: PractitionerData.id(0)) != nil else {
            throw SessionBench.Failure("the store has no practitioner \(PractitionerData.id(0))")
        }
        try await benchmarkCase.settle()
        stillpoint_bench_malloc_trim()
        let heapBefore = Double(stillpoint_bench_malloc_in_use())
        let rssBefore = ResourceUsage.residentMegabytes() ?? 0
        let seconds = try await Stopwatch.seconds {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<warmers {
                    group.addTask {
                        for number in stride(from: 1 + worker, to: n, by: warmers) {
                            let id = PractitionerData.id(number)
                            guard try await live.report(for: id) != nil else { throw SessionBench.Failure("the store has no practitioner \(id)") }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        try await benchmarkCase.settle()
        stillpoint_bench_malloc_trim()
        let heapAfter = Double(stillpoint_bench_malloc_in_use())
        let rssAfter = ResourceUsage.residentMegabytes() ?? 0
        let metrics = live.metrics
        await live.shutdown()
        guard metrics.digests == n, metrics.reports == n else {
            throw SessionBench.Failure("after warming \(n) practitioners the service holds \(metrics.digests) digests and \(metrics.reports) reports")
        }
        // Not that it grew: a smoke run's few small digests are within what the allocator's own bookkeeping moves.
        guard heapBefore > 0, heapAfter > 0, rssAfter > 0 else {
            throw SessionBench.Failure("the process's memory could not be read: heap \(heapBefore) then \(heapAfter) bytes, RSS \(rssAfter) MiB")
        }
        // Practitioner 0 is in the baseline: the growth is that of the other n - 1.
        let warmed = Double(max(1, n - 1))
        let heap = (heapAfter - heapBefore) / warmed
        let rss = (rssAfter - rssBefore) * 1_048_576 / warmed
        let columns = Double(metrics.digestBytes) / Double(n)
        let rendered = Double(metrics.reportBytes) / Double(n)
        return Sample(seconds: seconds, metrics: [
            "heap_per_practitioner": heap, "rss_per_practitioner": rss, "digest_columns": columns, "rendered": rendered,
            "other": heap - columns - rendered, "heap_mb": heapAfter / 1_048_576, "rss_mb": rssAfter,
            "projected_10k_mb": rssBefore + 10_000 * rss / 1_048_576,
        ])
    }

    /// The store of `n` practitioners to read: PostgreSQL's filled by `COPY` (the `serve` suite's rows), or the
    /// `practitioners` suite's SQLite store loaded through the import path.
    private static func digestMemoryStore(_ n: Int, _ store: StoreKind) async throws -> PersistentContainer {
        if store == .postgres {
            return try PersistentContainer(schema: Session.schema, postgres: try await Fixture.shared.store(n).uri)
        }
        return try await PractitionersSuite.Fixture.shared.loaded(n, store).open()
    }
}
