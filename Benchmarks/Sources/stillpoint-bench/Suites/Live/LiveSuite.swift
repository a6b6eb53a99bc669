import Foundation
import StillpointCore

/// Live results over N rows, one change merged: the time from merging a change set of one changed row into the
/// view context to the next snapshot's arrival in a loop iterating the view context's live results, against a
/// plain refetch of the N rows (every value, no objects: `forEachRow`) measured in the same run. It should stay
/// flat as N grows.
///
/// Each run stores N items and makes live results for every item ordered by title on the view context. Then,
/// `changesPerRun` times, a background context changes one item's title so that it moves from the middle to
/// one end of the order and saves (untimed), and the view context merges that change set by hand
/// (`mergeChanges(from:)`, as an automatic merge does); the time runs from the merge's start to the snapshot's
/// arrival in the loop. The run's time is the median of those; the baseline is the median of as many
/// refetches, each after its change.
///
/// Extra metrics: `rows_read` (rows the snapshot read from the store; 1 for one change), `refetch_objects_ms`
/// (the same refetch as managed objects, `context.fetch`, in a fresh context).
struct LiveSuite: BenchmarkSuite {
    let name = "live"
    let summary = "live results over N rows: one change merged, time to the next snapshot vs a refetch of the N rows"
    let sizes = [10_000, 100_000]
    let stores: [StoreKind] = [.file, .memory]
    static let changesPerRun = 5

    /// PostgreSQL too, so that CI runs the other-process workload on both of its stores.
    var smokeStores: [StoreKind] { stores + [.postgres] }
    /// The p99 target of `other-process`, in milliseconds (issue 26).
    static let otherProcessP99Milliseconds = 5.0

    var workloads: [Workload] {
        [Workload(name: "one-change") { benchmarkCase in try await Self.oneChange(benchmarkCase) },
         Workload(name: "other-process", stores: [.file, .postgres]) { benchmarkCase in try await Self.otherProcess(benchmarkCase) }]
    }

    static func oneChange(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        let rows = benchmarkCase.n
        let container = try benchmarkCase.store.container(schema: Item.schema, in: benchmarkCase.directory)
        try await storeItems(rows, in: container)
        let view = container.viewContext
        let request = FetchRequest(Item.self, sortedBy: [.ascending(Item.title)])
        let results = try await view.liveResults(for: request)
        guard results.latest.count == rows else { throw Failure("the live results hold \(results.latest.count) items, not \(rows)") }
        // The consumer: a loop that notes when each snapshot arrives.
        let (arrivals, arrived) = AsyncStream.makeStream(of: (LiveSnapshot, ContinuousClock.Instant).self)
        let consumer = Task {
            for await snapshot in results { arrived.yield((snapshot, ContinuousClock.now)) }
            arrived.finish()
        }
        defer { consumer.cancel() }
        var arrivalIterator = arrivals.makeAsyncIterator()
        _ = await arrivalIterator.next()  // the first snapshot
        try await benchmarkCase.settle()

        let writer = container.newBackgroundContext(name: "writer")
        var times: [Double] = []
        var refetches: [Double] = []
        var objectRefetches: [Double] = []
        var rowsRead = 0
        for round in 0..<changesPerRun {
            // Alternately to the front and to the back of the order, from the middle.
            let uid = Int32(rows / 2 + round)
            let title = round.isMultiple(of: 2) ? "A \(round)" : "Z \(round)"
            let changeSet = try await writer.perform { context in
                let item = try context.fetch(FetchRequest(Item.self, predicate: try FetchPredicate("uid == %@", uid)))
                guard let item = item.first else { throw Failure("no item \(uid)") }
                item[Item.title] = title
                guard let changeSet = try await context.save() else { throw Failure("the save changed nothing") }
                return changeSet
            }
            // Timed: the merge into the view context, and the snapshot's way to the loop.
            let merging = ContinuousClock.now
            try await view.perform { context in try context.mergeChanges(from: changeSet) }
            guard let (snapshot, arrival) = await arrivalIterator.next() else { throw Failure("the live results ended") }
            guard snapshot.difference.moved.count == 1, snapshot.count == rows else {
                throw Failure("the snapshot after one change has \(snapshot.difference.moved.count) moves and \(snapshot.count) rows")
            }
            times.append((arrival - merging).seconds)
            rowsRead = max(rowsRead, snapshot.rowsRead)

            // The baseline: the whole result read again, as code without live results would.
            refetches.append(try await view.perform { context in
                try Stopwatch.seconds {
                    var all: [ContiguousArray<AttributeValue>] = []
                    all.reserveCapacity(rows)
                    try context.forEachRow(request) { all.append($0) }
                    guard all.count == rows else { throw Failure("the refetch read \(all.count) rows") }
                }
            })
            objectRefetches.append(try await container.newBackgroundContext().perform { context in
                try Stopwatch.seconds { _ = try context.fetch(request) }
            })
        }
        await results.stop()
        return Sample(seconds: BenchmarkRunner.median(times), baselineSeconds: BenchmarkRunner.median(refetches), metrics: [
            "rows_read": Double(rowsRead),
            "refetch_objects_ms": BenchmarkRunner.median(objectRefetches) * 1_000,
        ])
    }

    /// Stores items 0 to `count - 1` in one save (not timed).
    static func storeItems(_ count: Int, in container: PersistentContainer) async throws {
        try await container.performBackgroundTask { context in
            for uid in 0..<Int32(count) {
                let item = context.insert(Item.self)
                item[Item.uid] = uid
                item[Item.title] = Item.title(uid)
            }
            try await context.save()
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// Per store, one row per N: the time to the next snapshot, the refetch, their ratio, and the rows read; then
    /// the other-process workload's percentiles, against its target.
    func table(of measurements: [Measurement], options: BenchmarkOptions) -> String {
        var sections = ["\(name): \(summary); median of \(options.runs) runs of the median of \(Self.changesPerRun) changes each. "
                        + "The ratio is the snapshot's time over the refetch's: below 1, live results are cheaper."]
        for store in StoreKind.allCases {
            let rows = measurements.filter { $0.store == store && $0.workload == "one-change" }
            guard !rows.isEmpty else { continue }
            let header = ["rows (n)", "next snapshot", "refetch (values)", "refetch (objects)", "rows read", "ratio"]
            let cells = rows.map { measurement in
                [String(measurement.n), String(format: "%.2f ms", measurement.seconds * 1_000),
                 measurement.baselineSeconds.map { String(format: "%.2f ms", $0 * 1_000) } ?? "-",
                 measurement.metric("refetch_objects_ms").map { String(format: "%.2f ms", $0) } ?? "-",
                 measurement.metric("rows_read").map { String(Int($0)) } ?? "-",
                 measurement.ratio.map { String(format: "%.3fx", $0) } ?? "n/a"]
            }
            sections.append("**\(store.title)**\n\n" + ResultTable.render(header: header, rows: cells))
        }
        let others = measurements.filter { $0.workload == "other-process" }
        if !others.isEmpty {
            let header = ["store", "rows (n)", "commits", "p50", "p99", "max", "p99 from save start", "child's save p50", "target p99"]
            let milliseconds = { (measurement: Measurement, key: String) in
                measurement.metric(key).map { String(format: "%.2f ms", $0) } ?? "-"
            }
            let cells = others.map { measurement in
                [measurement.store.title, String(measurement.n), measurement.metric("commits").map { String(Int($0)) } ?? "-",
                 milliseconds(measurement, "p50_ms"), milliseconds(measurement, "p99_ms"), milliseconds(measurement, "max_ms"),
                 milliseconds(measurement, "from_save_start_p99_ms"), milliseconds(measurement, "save_p50_ms"),
                 measurement.metric("p99_ms").map { $0 < Self.otherProcessP99Milliseconds ? "met" : "MISSED" } ?? "-"]
            }
            sections.append("**Another process's commit to the live snapshot that shows it** (from the child's `save()` "
                            + "returning; median of \(options.runs) runs of each run's percentiles; target p99 under "
                            + "\(String(format: "%g", Self.otherProcessP99Milliseconds)) ms)\n\n" + ResultTable.render(header: header, rows: cells))
        }
        return sections.joined(separator: "\n\n")
    }
}
