import Foundation
import StillpointCore
import StillpointSQLite

/// The seeds' stack topologies: a worker saves N new objects; how long until the view context sees them, and
/// how long the main actor is busy meanwhile.
///
/// - siblings (seeds 000, 001, 003): the worker is a background context on the store; the view context merges
///   automatically. It has seen the objects once its merge of the save's change set is done
///   (`container.waitUntilMerged`) and its `count(for:)` says N. The save persists them.
/// - parent-child (seed 004): the worker is a private child of the view context. Its save hands the objects to
///   the view context (on the main actor), which sees them at once; the view context's save then persists them.
/// - root-writer (seed 002): a private root context on the store; the view context (merging automatically from
///   its parent) and the worker are its children. The worker's save reaches the root and is merged into the
///   view context; the root's save, started as soon as the worker's save returns, persists them in the
///   background while the view context catches up. The view context is a main-actor child of the root
///   (`newChildContext(onMainActor: true)`), as seed 002's UI context is a main-queue child: its merges run on
///   the main actor.
///
/// `seconds` is the latency from the worker's `save()` until the view context's count reaches N. Extra metrics:
/// `main_actor_busy_ms`, `main_actor_late_ms`, `control_late_ms`, `main_actor_longest_ms` and
/// `control_longest_ms` (see ``MainActorLoad``); `saved_ms` (the worker's save returned) and `persisted_ms`
/// (the objects are in the store), from the same start; `rss_growth_mb` and `peak_rss_mb` (resident memory over
/// the window, which starts with the worker holding its N unsaved objects); `view_objects` (objects the view
/// context holds at the end). There is no baseline, hence no ratio.
struct TopologiesSuite: BenchmarkSuite {
    let name = "topologies"
    let summary = "a worker saves N objects until the view context sees them, per stack topology"
    let sizes = [50_000]
    let stores: [StoreKind] = [.file, .memory]

    var workloads: [Workload] {
        [
            Workload(name: "siblings", measure: Self.siblings),
            Workload(name: "parent-child", measure: Self.parentChild),
            Workload(name: "root-writer", measure: Self.rootWriter),
        ]
    }

    // MARK: Topologies

    static func siblings(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        let n = benchmarkCase.n
        let container = try PersistentContainer(schema: Pose.schema, location: benchmarkCase.store.location(in: benchmarkCase.directory))
        let view = container.viewContext
        await view.setAutomaticallyMergesChangesFromParent(true)
        let worker = container.newBackgroundContext(name: "worker")
        await worker.perform { Pose.insert(n, in: $0) }

        var window = await Window.open()
        guard let changeSet = try await worker.save() else { throw Failure("the worker's save changed nothing") }
        window.saved = window.elapsed
        window.persisted = window.elapsed
        await container.waitUntilMerged(changeSet)
        try await waitUntilSeen(n, by: view)
        window.seen = window.elapsed
        return try await window.close(view: view, container: container, expecting: n)
    }

    static func parentChild(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        let n = benchmarkCase.n
        let container = try PersistentContainer(schema: Pose.schema, location: benchmarkCase.store.location(in: benchmarkCase.directory))
        let view = container.viewContext
        let worker = await view.newChildContext(name: "worker")
        await worker.perform { Pose.insert(n, in: $0) }

        var window = await Window.open()
        try await worker.save()
        window.saved = window.elapsed
        try await waitUntilSeen(n, by: view)
        window.seen = window.elapsed
        try await view.save()
        window.persisted = window.elapsed
        return try await window.close(view: view, container: container, expecting: n)
    }

    static func rootWriter(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        let n = benchmarkCase.n
        let container = try PersistentContainer(schema: Pose.schema, location: benchmarkCase.store.location(in: benchmarkCase.directory))
        let root = container.newBackgroundContext(name: "root")
        let view = await root.newChildContext(name: "view", onMainActor: true)
        await view.setAutomaticallyMergesChangesFromParent(true)
        let worker = await root.newChildContext(name: "worker")
        await worker.perform { Pose.insert(n, in: $0) }

        var window = await Window.open()
        try await worker.save()
        window.saved = window.elapsed
        let start = window.start
        let rootSave = Task {
            try await root.save()
            return ContinuousClock.now - start
        }
        try await waitUntilSeen(n, by: view)
        window.seen = window.elapsed
        window.persisted = try await rootSave.value
        return try await window.close(view: view, container: container, expecting: n)
    }

    // MARK: Measuring

    /// The measured window of one run: from the worker's save until the objects are seen and persisted.
    struct Window {
        let start: ContinuousClock.Instant
        let load: MainActorLoad
        let residentAtStart: Double?
        var saved: Duration?
        var seen: Duration?
        var persisted: Duration?

        static func open() async -> Window {
            let load = await MainActorLoad.start()
            ResourceUsage.resetPeak()
            let resident = ProcessMemory.residentMegabytes()
            return Window(start: .now, load: load, residentAtStart: resident)
        }

        var elapsed: Duration { ContinuousClock.now - start }

        /// Stops the tickers, checks the outcome (untimed) and makes the sample.
        func close(view: ObjectContext, container: PersistentContainer, expecting n: Int) async throws -> Sample {
            let mainActor = await load.stop(window: start..<ContinuousClock.now)
            let peak = ProcessMemory.peakMegabytes()
            guard let saved, let seen, let persisted else { throw Failure("a run ended without all its times") }
            let stored = try await container.newBackgroundContext(name: "check").perform { try $0.count(for: FetchRequest(Pose.self)) }
            guard stored == n else { throw Failure("the store holds \(stored) poses, not \(n)") }
            let held = await view.perform { $0.registeredObjects.count }
            var metrics: [String: Double] = [
                "main_actor_busy_ms": mainActor.busyMilliseconds,
                "main_actor_late_ms": mainActor.main.lateMilliseconds,
                "control_late_ms": mainActor.control.lateMilliseconds,
                "main_actor_longest_ms": mainActor.main.longestMilliseconds,
                "control_longest_ms": mainActor.control.longestMilliseconds,
                "saved_ms": saved.seconds * 1_000,
                "persisted_ms": persisted.seconds * 1_000,
                "view_objects": Double(held),
            ]
            if let peak {
                metrics["peak_rss_mb"] = peak
                if let residentAtStart { metrics["rss_growth_mb"] = peak - residentAtStart }
            }
            return Sample(seconds: seen.seconds, baselineSeconds: nil, metrics: metrics)
        }
    }

    /// Asks the view context for its count until it reaches `count`, as a screen refreshing would.
    static func waitUntilSeen(_ count: Int, by view: ObjectContext) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while try await view.perform({ try $0.count(for: FetchRequest(Pose.self)) }) < count {
            guard ContinuousClock.now < deadline else { throw Failure("the view context never saw \(count) poses") }
            try await Task.sleep(for: .microseconds(250))
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: Table

    /// Per store, one row per topology: latency, persistence, main-actor time and memory.
    func table(of measurements: [Measurement], options: BenchmarkOptions) -> String {
        let size = measurements.first.map { " N = \($0.n)," } ?? ""
        var sections = ["\(name): \(summary);\(size) median of \(options.runs) runs. No baseline is defined for this suite, "
                        + "so there is no ratio (null in --json); the topologies are compared with each other."]
        func milliseconds(_ measurement: Measurement, _ key: String) -> String {
            measurement.metric(key).map { String(format: "%.1f", $0) } ?? "-"
        }
        for store in StoreKind.allCases {
            let rows = measurements.filter { $0.store == store }
            guard !rows.isEmpty else { continue }
            let header = ["topology", "view sees", "worker's save (ms)", "persisted (ms)", "main actor busy (ms)",
                          "main ticker late / control late (ms)", "longest main-actor stall (ms)", "RSS growth (MB)",
                          "objects in view", "ratio"]
            let cells = rows.map { measurement in
                [measurement.workload, ResultTable.seconds(measurement.seconds), milliseconds(measurement, "saved_ms"),
                 milliseconds(measurement, "persisted_ms"), milliseconds(measurement, "main_actor_busy_ms"),
                 milliseconds(measurement, "main_actor_late_ms") + " / " + milliseconds(measurement, "control_late_ms"),
                 milliseconds(measurement, "main_actor_longest_ms"), milliseconds(measurement, "rss_growth_mb"),
                 measurement.metric("view_objects").map { String(Int($0)) } ?? "-", "n/a"]
            }
            sections.append("**\(store.title)**\n\n" + ResultTable.render(header: header, rows: cells))
        }
        return sections.joined(separator: "\n\n")
    }
}
