import Foundation
import StillpointCore
import StillpointSQLite
import Synchronization

/// The responsiveness benchmark: how long the main actor can go without running while the import of N
/// records and eight aggregate operations run on one ``ContextOperationQueue``.
///
/// The store starts with N sessions already in it (copied from a fixture, not timed), so that every aggregate
/// scans a real log. Then, while a main-actor ``Ticker`` sleeps one millisecond at a time and records the gaps
/// between its wake-ups, the queue runs, all at once (`maxConcurrentOperationCount` 9):
///  - an ``ImportOperation`` of N new records (generated on the fly, batches of 1,000), and
///  - eight ``ContextOperation``s, each running one dictionary fetch (counts, sums, averages, minima and maxima,
///    some grouped by kind, some with a predicate) over the sessions; `STILLPOINT_BENCH_AGGREGATE_ROUNDS=<k>`
///    makes each run its fetch k times, and `0` repeats them until the import has finished.
/// Nothing but the ticker runs on the main actor: the view context is not used and merges nothing.
///
/// Reported: `max_gap_ms` and `p99_gap_ms` of the gaps while the work runs (target: max under 16 ms), the same
/// for one idle second before it (`idle_max_gap_ms`, `idle_p99_gap_ms`: the machine's own jitter), how many
/// threads served the main actor's ticks (`main_actor_threads`: on Linux, libdispatch drains the main queue on its
/// worker threads once the async `main` has suspended), how many aggregate fetches completed, how long the import
/// took, and the wall time of the whole (`seconds`). There is no baseline.
///
/// The `live-list` workload (``liveList(_:)``) measures the same gaps with a live list of the latest sessions on
/// the main actor while N sessions are imported, on a SQLite file store and on PostgreSQL.
struct ResponsivenessSuite: BenchmarkSuite {
    let name = "responsiveness"
    let summary = "main-actor tick gaps while an import of N records and 8 aggregate operations run"
    let sizes = [1_000_000]
    let stores: [StoreKind] = [.file, .postgres]

    static let aggregateCount = 8
    /// How many times each aggregate operation runs its fetch: 1 unless `STILLPOINT_BENCH_AGGREGATE_ROUNDS` says
    /// otherwise; 0 repeats it until the import has finished (a sustained read load: see RESULTS-workloads.md
    /// for what that does to the import).
    static let aggregateRounds = ProcessInfo.processInfo.environment["STILLPOINT_BENCH_AGGREGATE_ROUNDS"].flatMap { Int($0) }
        .map { max(0, $0) } ?? 1
    static let maxGapMilliseconds = 16.0

    var workloads: [Workload] {
        [Workload(name: "responsiveness", stores: [.file], measure: Self.measure),
         Workload(name: "live-list", stores: [.file, .postgres], measure: Self.liveList)]
    }

    /// Set once the import has ended, so that the aggregate operations stop repeating.
    private final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .acquiring) }
        func set() { value.store(true, ordering: .releasing) }
    }

    static func measure(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        guard benchmarkCase.store == .file else {
            throw SessionBench.Failure("the responsiveness suite measures a SQLite file store only (--store file)")
        }
        let n = benchmarkCase.n
        let url = try await SessionBench.Fixture.shared.copy(rows: n, into: benchmarkCase.directory, as: "stillpoint.sqlite")
        let container = try PersistentContainer(schema: SessionBench.Record.schema, location: .file(url))
        let queue = ContextOperationQueue(container: container, name: "responsiveness",
                                          maxConcurrentOperationCount: 1 + aggregateCount)
        let importDone = Flag()
        let importOperation = ImportOperation(entity: SessionBench.Record.entity, key: ["key"], batchSize: ImportSuite.batchSize,
                                              identifier: "import") {
            SessionBench.GeneratedSource(n..<(2 * n))
        }
        let requests = try (0..<aggregateCount).map(aggregate)
        let repeats = aggregateRounds
        let aggregates = requests.enumerated().map { index, request in
            ContextOperation<Int>(identifier: "aggregate-\(index)") { context, operation in
                var rounds = 0
                repeat {
                    try operation.checkCancellation()
                    _ = try context.fetchDictionaries(request)
                    rounds += 1
                } while repeats == 0 ? !importDone.isSet : rounds < repeats
                return rounds
            }
        }

        let ticker = await Ticker.start()
        try await Task.sleep(for: .seconds(1))
        let idleTicks = await ticker.takeGaps()
        let idle = GapSummary(idleTicks.gaps)
        var summary = ImportSummary()
        var importSeconds = 0.0
        let clock = ContinuousClock()
        let seconds = try await Stopwatch.seconds {
            let start = clock.now
            queue.addOperations([importOperation] + aggregates)
            do {
                summary = try await importOperation.value
                importSeconds = (clock.now - start).seconds
                importDone.set()
            } catch {
                importDone.set()
                queue.cancelAllOperations()
                throw error
            }
            await queue.waitUntilAllOperationsAreFinished()
        }
        let loadedTicks = await ticker.stop()
        let loaded = GapSummary(loadedTicks.gaps)

        var rounds = 0
        for aggregate in aggregates { rounds += try await aggregate.value }
        guard summary.inserted == n, summary.recordsRead == n else {
            throw SessionBench.Failure("the import read \(summary.recordsRead) and inserted \(summary.inserted) of \(n) records")
        }
        let count = try await container.performBackgroundTask { context in
            try context.count(for: FetchRequest(SessionBench.Record.self))
        }
        guard count == 2 * n else { throw SessionBench.Failure("the store holds \(count) rows, not \(2 * n)") }
        try container.close()

        return Sample(seconds: seconds, metrics: [
            "max_gap_ms": loaded.max, "p99_gap_ms": loaded.p99, "ticks": Double(loaded.count),
            "idle_max_gap_ms": idle.max, "idle_p99_gap_ms": idle.p99,
            "main_actor_threads": Double(loadedTicks.threads), "import_seconds": importSeconds, "aggregate_fetches": Double(rounds),
        ])
    }

    /// The eight aggregate dictionary fetches over the sessions.
    static func aggregate(_ index: Int) throws -> FetchRequest {
        var request = FetchRequest(SessionBench.Record.self)
        switch index {
        case 0:
            request.properties = [.count(as: "sessions"), .aggregate(.sum, of: "duration", as: "total")]
        case 1:
            request.properties = [.attribute("kind"), .count(as: "sessions"), .aggregate(.sum, of: "duration", as: "total")]
            request.groupBy = ["kind"]
        case 2:
            request.predicate = try FetchPredicate("kind == %@", "yoga")
            request.properties = [.aggregate(.average, of: "duration", as: "average")]
        case 3:
            request.properties = [.aggregate(.minimum, of: "start", as: "first"), .aggregate(.maximum, of: "start", as: "last")]
        case 4:
            request.properties = [.attribute("kind"), .aggregate(.maximum, of: "duration", as: "longest")]
            request.groupBy = ["kind"]
        case 5:
            request.predicate = try FetchPredicate("duration >= %@", 1_800.0)
            request.properties = [.count(as: "long")]
        case 6:
            request.predicate = try FetchPredicate("start >= %@", Date(timeIntervalSince1970: 1_700_000_000))
            request.properties = [.attribute("kind"), .aggregate(.average, of: "duration", as: "average")]
            request.groupBy = ["kind"]
        default:
            request.predicate = try FetchPredicate("kind IN %@", ["meditation", "tai_chi"])
            request.properties = [.aggregate(.sum, of: "duration", as: "total")]
        }
        return request
    }

    // MARK: Table

    func table(of measurements: [Measurement], options: BenchmarkOptions) -> String {
        var text = ResultTable.generic(measurements, title: "\(name): \(summary); median of \(options.runs) runs")
        let verdicts = measurements.compactMap { measurement -> String? in
            guard let gap = measurement.metric("max_gap_ms") else { return nil }
            let target = measurement.workload == "live-list" ? Self.liveListMaxGapMilliseconds : Self.maxGapMilliseconds
            let idle = measurement.metric("idle_max_gap_ms").map { String(format: ", idle %.1f ms in the same run", $0) } ?? ""
            return "- \(measurement.workload), \(measurement.store.rawValue), n = \(measurement.n): longest main-actor gap "
                + "\(String(format: "%.1f", gap)) ms\(idle) (target under \(String(format: "%g", target)) ms): "
                + (gap < target ? "met" : "MISSED")
        }
        if !verdicts.isEmpty { text += "\n\nTargets:\n" + verdicts.joined(separator: "\n") }
        return text
    }
}
