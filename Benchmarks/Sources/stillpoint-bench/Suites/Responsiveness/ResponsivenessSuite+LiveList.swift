import Foundation
import StillpointCore

extension ResponsivenessSuite {
    /// The sessions a live list shows: the latest 20, as `stillpoint sessions --live` does.
    static let listLength = 20
    /// The live list's target for the longest main-actor gap, in milliseconds: one frame at 120 Hz (issue 26).
    static let liveListMaxGapMilliseconds = 8.3

    /// A live list of the latest sessions on the main actor while N sessions are imported in the background, on
    /// a SQLite file store or PostgreSQL (issue 26's row).
    ///
    /// The store starts empty. The view context merges automatically and holds live results of the latest
    /// ``listLength`` sessions by start, and a loop on the main actor takes every snapshot, as a list on screen
    /// would (``LatestList``). A main-actor ``Ticker`` runs one idle second, then through an ``ImportOperation``
    /// of N generated sessions (batches of 1,000, on a ``ContextOperationQueue``: the library's import path),
    /// until the list shows the import's latest sessions; every saved batch is merged into the view context and
    /// its live results on the main actor meanwhile.
    ///
    /// Reported: `max_gap_ms` and `p99_gap_ms` of the main actor's gaps while the import runs (target: max under
    /// 8.3 ms), `idle_max_gap_ms` and `idle_p99_gap_ms` for the idle second before it in the same run (the
    /// machine's own jitter), `snapshots` (how many the list took), `import_seconds`, and `seconds`: from the
    /// import's start to the list showing its latest. Checked: the list ends with the import's latest
    /// ``listLength`` sessions, newest first, and the store holds N.
    static func liveList(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        let n = benchmarkCase.n
        let container = try benchmarkCase.store.container(schema: SessionBench.Record.schema, in: benchmarkCase.directory)
        let view = container.viewContext
        await view.setAutomaticallyMergesChangesFromParent(true)
        var request = FetchRequest(SessionBench.Record.self, sortedBy: [.descending(SessionBench.Record.start)])
        request.limit = listLength
        let results = try await view.liveResults(for: request)
        let list = await LatestList.start(results)
        let expected = (max(0, n - listLength)..<n).reversed().map { SessionBench.row($0).key }

        let ticker = await Ticker.start()
        try await Task.sleep(for: .seconds(1))
        let idle = GapSummary(await ticker.takeGaps().gaps)
        let queue = ContextOperationQueue(container: container, name: "live-list import", maxConcurrentOperationCount: 1)
        let importOperation = ImportOperation(entity: SessionBench.Record.entity, key: ["key"], batchSize: ImportSuite.batchSize,
                                              identifier: "import") {
            SessionBench.GeneratedSource(0..<n)
        }
        let clock = ContinuousClock()
        let start = clock.now
        queue.addOperation(importOperation)
        let summary: ImportSummary
        do {
            summary = try await importOperation.value
        } catch {
            _ = await ticker.stop()
            await results.stop()
            throw error
        }
        let importSeconds = (clock.now - start).seconds
        // The last batches' merges may still be on their way to the list: the ticker runs until it shows them.
        let deadline = clock.now + .seconds(60)
        while await list.keys != expected, clock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        let seconds = (clock.now - start).seconds
        let loadedTicks = await ticker.stop()
        let loaded = GapSummary(loadedTicks.gaps)
        await results.stop()
        let (keys, snapshots) = await (list.keys, list.shown)

        guard keys == expected else {
            throw SessionBench.Failure("60 s after the import, the live list shows \(keys.prefix(3))..., "
                                       + "not the import's latest \(expected.prefix(3))...")
        }
        guard summary.inserted == n, summary.recordsRead == n else {
            throw SessionBench.Failure("the import read \(summary.recordsRead) and inserted \(summary.inserted) of \(n) records")
        }
        let count = try await container.performBackgroundTask { context in
            try context.count(for: FetchRequest(SessionBench.Record.self))
        }
        guard count == n else { throw SessionBench.Failure("the store holds \(count) sessions, not \(n)") }
        try container.close()

        return Sample(seconds: seconds, metrics: [
            "max_gap_ms": loaded.max, "p99_gap_ms": loaded.p99, "ticks": Double(loaded.count),
            "idle_max_gap_ms": idle.max, "idle_p99_gap_ms": idle.p99,
            "main_actor_threads": Double(loadedTicks.threads), "import_seconds": importSeconds, "snapshots": Double(snapshots),
        ])
    }

    /// A list on screen: a main-actor loop that takes each snapshot of live results, keeping the latest.
    ///
    /// ```swift
    /// let list = await LatestList.start(results)
    /// let shown = await list.keys    // the keys of the sessions it shows, in order
    /// ```
    @MainActor
    final class LatestList {
        /// The keys of the sessions of the latest snapshot, in its order.
        private(set) var keys: [String] = []
        /// How many snapshots the loop took.
        private(set) var shown = 0
        private var loop: Task<Void, Never>?

        private init() {}

        /// Starts taking the snapshots of `results` on the main actor, until they stop.
        static func start(_ results: LiveResults) -> LatestList {
            let list = LatestList()
            list.loop = Task { @MainActor in
                for await snapshot in results {
                    list.keys = snapshot.rows.map { $0[SessionBench.Record.key] ?? "" }
                    list.shown += 1
                }
            }
            return list
        }
    }
}
