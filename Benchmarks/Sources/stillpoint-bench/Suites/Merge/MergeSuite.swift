import Foundation
import StillpointCore
import StillpointSQLite

/// The cost of a merge, which should follow what a context holds rather than what changed: a change set of C updated objects merged into a view context that
/// holds N of them, for N = 1,000 and 10,000 and C = 5,000 and 50,000. It should follow N, not C.
///
/// Each run stores max(N, C) sittings, has the view context fetch (and so hold) the first N, then, `mergesPerRun`
/// times, batch-updates the first C in a background context (untimed) and merges that batch's change set into
/// the view context by hand with `mergeChanges(from:)`, timed on the main actor around that call only. The
/// run's time is the median of its merges. Every held object is in the change set when C ≥ N; for N = 10,000
/// and C = 5,000 half of them are.
///
/// The `scattered-50000` workload updates every other row instead, among the first 2C: the change set then has
/// 50,000 runs of one row each rather than one run, and half the held objects are in it.
///
/// `n` is the number of objects held; extra metrics: `changes` (C), `runs` (runs of row ids in the change set),
/// `stale_objects` (held objects in the change set), `per_held_object_us`. There is no baseline, hence no ratio:
/// the table compares the workloads.
struct MergeSuite: BenchmarkSuite {
    let name = "merge"
    let summary = "merging a change set of C updates into a view context holding N objects (n = N)"
    let sizes = [1_000, 10_000]
    let stores: [StoreKind] = [.file, .memory]
    static let changeSetSizes = [5_000, 50_000]
    static let mergesPerRun = 5

    static let scatteredChanges = 50_000

    var workloads: [Workload] {
        Self.changeSetSizes.map { changes in
            Workload(name: "changes-\(changes)") { benchmarkCase in try await Self.merge(benchmarkCase, changes: changes, scattered: false) }
        } + [Workload(name: "scattered-\(Self.scatteredChanges)") { benchmarkCase in
            try await Self.merge(benchmarkCase, changes: Self.scatteredChanges, scattered: true)
        }]
    }

    static func merge(_ benchmarkCase: BenchmarkCase, changes: Int, scattered: Bool) async throws -> Sample {
        let held = benchmarkCase.n
        let rows = max(held, scattered ? 2 * changes : changes)
        let container = try PersistentContainer(schema: Sitting.schema, location: benchmarkCase.store.location(in: benchmarkCase.directory))
        try await container.performBackgroundTask { context in
            for uid in 0..<Int32(rows) {
                let sitting = context.insert(Sitting.self)
                sitting[Sitting.uid] = uid
                sitting[Sitting.title] = "sitting \(uid)"
                sitting[Sitting.minutes] = 5 + uid % 40
            }
            try await context.save()
        }
        let view = container.viewContext
        let heldRequest = FetchRequest(Sitting.self, predicate: try FetchPredicate("uid < %@", Int32(held)))
        let fetched = try await view.perform { try $0.fetch(heldRequest).count }
        guard fetched == held else { throw Failure("the view context fetched \(fetched) sittings, not \(held)") }

        let writer = container.newBackgroundContext(name: "writer")
        // Scattered: the even uids, which are the ones with an odd number of minutes (5 + uid % 40).
        let changed = scattered
            ? FetchRequest(Sitting.self, predicate: try FetchPredicate("uid < %@ AND minutes IN %@", Int32(2 * changes), Array(stride(from: Int32(5), to: 45, by: 2))))
            : FetchRequest(Sitting.self, predicate: try FetchPredicate("uid < %@", Int32(changes)))
        var runs = 0
        var times: [Double] = []
        for round in 0..<mergesPerRun {
            let result = try await writer.batchUpdate(changed, set: ["title": .string("round \(round)")])
            guard let changeSet = result.changeSet, changeSet.updated.count == changes else {
                throw Failure("the batch update changed \(result.count) sittings, not \(changes)")
            }
            runs = Self.runCount(of: changeSet.updated)
            times.append(try await view.perform { context in
                let start = ContinuousClock.now
                try context.mergeChanges(from: changeSet)
                return (ContinuousClock.now - start).seconds
            })
        }

        // Checks (untimed): the held objects took the last values, and no other object was loaded.
        let lastTitle = "round \(mergesPerRun - 1)"
        let stale = scattered ? min(held, 2 * changes) / 2 : min(held, changes)
        let (count, titles) = try await view.perform { context in
            (context.registeredObjects.count,
             try context.fetch(changed).filter { $0[Sitting.uid] < Int32(held) }.map { $0[Sitting.title] })
        }
        guard count == held else { throw Failure("the view context holds \(count) objects after the merges, not \(held)") }
        guard titles.count == stale, titles.allSatisfy({ $0 == lastTitle }) else {
            throw Failure("a held object missed the merged title")
        }

        let seconds = BenchmarkRunner.median(times)
        return Sample(seconds: seconds, baselineSeconds: nil, metrics: [
            "changes": Double(changes),
            "runs": Double(runs),
            "stale_objects": Double(stale),
            "per_held_object_us": seconds / Double(held) * 1e6,
        ])
    }

    /// The runs of consecutive row ids among `ids` (sorted, as an `ObjectIDSet` lists them).
    static func runCount(of ids: ObjectIDSet) -> Int {
        var runs = 0, previous: Int64?
        for rowID in ids.compactMap(\.rowID) {
            if rowID != previous.map({ $0 + 1 }) { runs += 1 }
            previous = rowID
        }
        return runs
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: Table

    /// Per store, one row per (objects held, change set size); then how the time moves when only the change set
    /// grows tenfold, and when only the objects held do.
    func table(of measurements: [Measurement], options: BenchmarkOptions) -> String {
        var sections = ["\(name): \(summary); median of \(options.runs) runs of the median of \(Self.mergesPerRun) merges each. "
                        + "No baseline is defined for this suite, so there is no ratio (null in --json); the cases are compared with each other."]
        for store in StoreKind.allCases {
            let rows = measurements.filter { $0.store == store }
            guard !rows.isEmpty else { continue }
            let header = ["objects held (n)", "changes", "runs", "stale held objects", "merge", "per held object", "ratio"]
            let cells = rows.map { measurement in
                [String(measurement.n), measurement.metric("changes").map { String(Int($0)) } ?? "-",
                 measurement.metric("runs").map { String(Int($0)) } ?? "-",
                 measurement.metric("stale_objects").map { String(Int($0)) } ?? "-",
                 String(format: "%.2f ms", measurement.seconds * 1_000),
                 measurement.metric("per_held_object_us").map { String(format: "%.2f µs", $0) } ?? "-", "n/a"]
            }
            var lines: [String] = []
            func time(held: Int, changes: Int, scattered: Bool = false) -> Double? {
                rows.first { $0.n == held && $0.metric("changes") == Double(changes) && $0.workload.hasPrefix("scattered") == scattered }?.seconds
            }
            let (fewHeld, manyHeld) = (sizes.min() ?? 0, sizes.max() ?? 0)
            let (fewChanges, manyChanges) = (Self.changeSetSizes.min() ?? 0, Self.changeSetSizes.max() ?? 0)
            if let small = time(held: fewHeld, changes: fewChanges), let large = time(held: fewHeld, changes: manyChanges) {
                lines.append("- change set \(manyChanges / max(1, fewChanges))x larger (\(fewChanges) → \(manyChanges)), "
                             + "\(fewHeld) objects held: time x\(String(format: "%.2f", large / small))")
            }
            if let small = time(held: fewHeld, changes: manyChanges), let large = time(held: manyHeld, changes: manyChanges) {
                lines.append("- \(manyHeld / max(1, fewHeld))x the objects held (\(fewHeld) → \(manyHeld)), "
                             + "\(manyChanges) changes: time x\(String(format: "%.2f", large / small))")
            }
            if let oneRun = time(held: fewHeld, changes: Self.scatteredChanges),
               let scattered = time(held: fewHeld, changes: Self.scatteredChanges, scattered: true) {
                lines.append("- the \(Self.scatteredChanges) changes scattered (\(Self.scatteredChanges) runs instead of 1), "
                             + "\(fewHeld) objects held: time x\(String(format: "%.2f", scattered / oneRun))")
            }
            sections.append("**\(store.title)**\n\n" + ResultTable.render(header: header, rows: cells)
                            + (lines.isEmpty ? "" : "\n\n" + lines.joined(separator: "\n")))
        }
        return sections.joined(separator: "\n\n")
    }
}
