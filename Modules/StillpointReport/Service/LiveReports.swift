import Foundation
import PracticeLog
import StillpointCore
import StillpointManifest
import StillpointStatistics

/// Every practitioner's report, held in memory and kept current from the change log: what a report server holds
/// for its lifetime, so that a warm report is answered without reading the store.
///
/// A practitioner's report is made on the first request for it (their digest read from the store by
/// ``PractitionerReports``), then kept, per manifest, as rendered JSON (other formats rendered on demand and kept
/// until it changes). The structured report is not kept: another format is made again from the practitioner's
/// digest in memory, as of the same instant, without reading the store. The service follows the store's change
/// log from the moment it is made (``StoreWatch``: PostgreSQL pushes by `NOTIFY`, SQLite is polled; a burst of
/// commits is merged by ``ChangeCoalescer``) and makes again only the reports of the practitioners a change
/// touched: whose digests held a changed session, or who own one now. Each report that changed gets a new
/// generation and goes to its subscribers (``updates(of:manifest:after:)``).
///
/// When the store cannot be reached (a PostgreSQL server stopped), reports are still served from memory, marked
/// stale; when it is back, every held report catches up from the change log once (notifications sent meanwhile are
/// lost, so the service does not wait for them), and then they are current again.
///
/// ```swift
/// let reports = LiveReports(container: container, manifests: [LiveReports.defaultManifest: manifest],
///                               modules: modules)
/// let alice = try await reports.report(for: "alice")                  // read from the store once
/// for await update in try await reports.updates(of: "alice")! {        // now, then after each change
///     print(update.generation, update.body)
/// }
/// await reports.shutdown()                                             // ends every subscription
/// ```
public final class LiveReports: Sendable {
    /// The name a manifest is asked for by when the request names none.
    public static let defaultManifest = "default"

    /// A report held: one practitioner's, made with one manifest.
    struct Key: Hashable, Sendable {
        let practitioner: String
        let manifest: String
    }

    /// What is held of one report: its texts, not its structured ``Report`` (whose values, a year of days, cost
    /// more than the JSON for each of thousands of practitioners), and what making it again from the digest needs.
    struct Held: Sendable {
        var generation: Int64
        /// The day (of the manifest's zone and day start) it was made on: a report of yesterday is made again.
        var day: Int
        /// The instant it was made as of: another format is made again as of it.
        var asOf: Date
        /// The hash of what it says, its instant aside: a refresh that says the same keeps the generation.
        var content: Int
        /// What the digest cannot make again: the demo notice, and the outcomes of the statistics that read the
        /// store themselves (by entry index; none in the built-in manifests).
        var notice: String?
        var storeOutcomes: [Int: ReportOutcome]
        /// Its rendered texts by format name, JSON always.
        var rendered: [String: String]
        /// Its last refresh failed on the store: it is served as it is, stale, until a refresh succeeds.
        var failed = false
    }

    struct State {
        var held: [Key: Held] = [:]
        /// The reports being made for the first time, with how many requests wait for each.
        var loading: [Key: Int] = [:]
        /// The latest generation given to each practitioner: generations never go back, even for an id removed
        /// and added again.
        var generations: [String: Int64] = [:]
        /// The last piece of work of each practitioner with work under way: theirs run one at a time
        /// (``PractitionerReports`` asks it). A lane goes when its last work is done.
        var lanes: [String: Task<Void, Never>] = [:]
        var subscribers: [Key: [UUID: AsyncStream<LiveReport>.Continuation]] = [:]
        /// The practitioners whose refresh failed on the store, or read a change log held back by a transaction that
        /// ended meanwhile: made again on the next change, catch-up or probe.
        var needsRefresh: Set<String> = []
        /// A retry of the failed refreshes is asked for and not yet done.
        var retryAsked = false
        var storeUnreachable = false
        /// The store came back, and the held reports are being caught up with it.
        var catchingUp = false
        /// A catch-up round is asked for and not yet done: the probe asks again, after it, while one failed.
        var catchUpAsked = false
        /// The change sets received from the store's change log, and how many of them are applied to the reports.
        var received = 0
        var applied = 0
        var hits = 0
        var misses = 0
        var refreshes = 0
        var isShutDown = false
        var tasks: [Task<Void, Never>] = []

        var isStale: Bool { storeUnreachable || catchingUp }
    }

    public let container: PersistentContainer
    let manifests: [String: Manifest]
    let modules: ModuleCatalog
    let renderers: ReportRenderers
    let reports: PractitionerReports
    let now: @Sendable () -> Date
    let log: @Sendable (String) -> Void
    let state: LockedState<State>
    let watch: StoreWatch
    let coalescer = ChangeCoalescer()

    /// Serves the reports of `container`'s practitioners made with `manifests` (by the name a request gives;
    /// ``defaultManifest`` when it gives none) from `modules`' statistics, rendered by `renderers`.
    ///
    /// The store is followed from now on: other processes' commits are looked for every `pollInterval` (SQLite;
    /// PostgreSQL's `NOTIFY` wakes it at once), and whether the store can be reached every `probeInterval`.
    /// `now` is the instant reports are made as of; `log` hears what the service does.
    public init(container: PersistentContainer, manifests: [String: Manifest], modules: ModuleCatalog,
                renderers: ReportRenderers = .builtIn, pollInterval: Duration = .milliseconds(300),
                probeInterval: Duration = .seconds(1), now: @escaping @Sendable () -> Date = Date.init,
                log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.container = container
        self.manifests = manifests
        self.modules = modules
        self.renderers = renderers
        self.now = now
        self.log = log
        // Runners that keep no results: the service holds no report values between refreshes.
        reports = PractitionerReports(container: container, keepsResults: false, log: log)
        // Followed before any report is made, so that no commit falls between a report and the watch.
        watch = StoreWatch(container, every: pollInterval)
        state = LockedState(State())
        startFollowing(probeInterval: probeInterval)
    }

    /// The report of the practitioner `id` made with the manifest `manifest`, rendered as `format`, from memory when
    /// it is held; `nil` when the store has no such practitioner.
    ///
    /// - Throws: ``LiveReportsError`` for a manifest or format there is none of; the store's error when the report
    ///   is not held and the store cannot be read.
    ///
    /// ```swift
    /// guard let live = try await reports.report(for: "alice", format: .json) else { return notFound() }
    /// ```
    public func report(for id: String, manifest name: String = defaultManifest, format: ReportFormat = .json) async throws -> LiveReport? {
        let manifest = try self.manifest(named: name)
        guard let renderer = renderers.renderer(for: format) else {
            throw LiveReportsError.unknownFormat(format.name, known: renderers.formats.map(\.name))
        }
        let key = Key(practitioner: id, manifest: name)
        let today = manifest.environment.dayBoundary.day(of: now()).dayNumber
        let found: (held: Held, stale: Bool)? = state.withLock { state in
            guard let held = state.held[key], held.day == today else {
                state.misses += 1
                state.loading[key, default: 0] += 1
                return nil
            }
            state.hits += 1
            return (held, state.isStale)
        }
        var held: Held
        var stale: Bool
        if let found {
            (held, stale) = found
        } else {
            defer { state.withLock { state in state.loading[key] = state.loading[key].flatMap { $0 > 1 ? $0 - 1 : nil } } }
            guard let loaded = try await inLane(of: id, { [self] in try await refresh(key, manifest, onlyIfOld: true) }) else { return nil }
            held = loaded
            stale = state.withLock { $0.isStale }
        }
        let body: String
        if let rendered = held.rendered[format.name] {
            body = rendered
        } else {
            // The held report as it is in the lane: a refresh before this one may have replaced it.
            let asked = held
            guard let (current, made) = try await inLane(of: id, { [self] () -> (Held, Report)? in
                let current = state.withLock { $0.held[key] } ?? asked
                return try await madeAgain(current, key, manifest).map { (current, $0) }
            }) else {
                forget(id)
                return nil
            }
            held = current
            body = renderer.render(made)
            state.withLock { state in
                if state.held[key]?.generation == held.generation { state.held[key]?.rendered[format.name] = body }
            }
        }
        return LiveReport(practitioner: id, manifest: name, format: format, generation: held.generation, body: body,
                          asOf: held.asOf, isStale: stale || held.failed)
    }

    /// The JSON report of the practitioner `id` now, then each time it changes (with its new generation), until
    /// the practitioner is removed or the service shuts down; `nil` when the store has no such practitioner.
    ///
    /// With `generation` (a client resuming, such as an event stream's `Last-Event-ID`), the report now comes only
    /// when it is newer than that. A subscriber that falls behind gets the newest report, not every one between.
    ///
    /// ```swift
    /// for await update in try await reports.updates(of: "alice", after: 41) ?? AsyncStream { $0.finish() } {
    ///     send(id: update.generation, data: update.body)
    /// }
    /// ```
    public func updates(of id: String, manifest name: String = defaultManifest, after generation: Int64? = nil) async throws -> AsyncStream<LiveReport>? {
        guard try await report(for: id, manifest: name) != nil else { return nil }
        let key = Key(practitioner: id, manifest: name)
        let (stream, continuation) = AsyncStream.makeStream(of: LiveReport.self, bufferingPolicy: .bufferingNewest(1))
        let subscription = UUID()
        continuation.onTermination = { [weak self] _ in
            _ = self?.state.withLock { $0.subscribers[key]?.removeValue(forKey: subscription) }
        }
        let subscribed = state.withLock { state -> Bool in
            // Removed meanwhile, or shutting down: the stream ends at once.
            guard !state.isShutDown, let held = state.held[key] else { return false }
            state.subscribers[key, default: [:]][subscription] = continuation
            if generation.map({ held.generation > $0 }) ?? true {
                continuation.yield(Self.json(of: held, key, stale: state.isStale))
            }
            return true
        }
        if !subscribed { continuation.finish() }
        return stream
    }

    /// Whether reports are served stale now: the store cannot be reached, or is being caught up with.
    public var isStale: Bool {
        state.withLock { $0.isStale }
    }

    /// What the service has counted and holds now.
    public var metrics: LiveReportsMetrics {
        var metrics = state.withLock { state in
            LiveReportsMetrics(
                cacheHits: state.hits, cacheMisses: state.misses, refreshes: state.refreshes,
                reports: state.held.count,
                reportBytes: state.held.values.reduce(0) { total, held in total + held.rendered.values.reduce(0) { $0 + $1.utf8.count } },
                subscriptions: state.subscribers.values.reduce(0) { $0 + $1.count },
                changeLogLag: state.received - state.applied, isStale: state.isStale)
        }
        let digests = reports.keptDigests
        metrics.digests = digests.count
        metrics.digestBytes = digests.values.reduce(0) { total, digest in
            total + digest.withColumns(\.byteCount)
        }
        return metrics
    }

    /// Stops following the store and ends every subscription; the reports held are no longer kept current.
    public func shutdown() async {
        let (tasks, continuations) = state.withLock { state in
            state.isShutDown = true
            defer { state.subscribers = [:] }
            return (state.tasks, state.subscribers.values.flatMap(\.values))
        }
        watch.stop()
        coalescer.finish()
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
        for continuation in continuations { continuation.finish() }
    }

    // MARK: Making reports

    func manifest(named name: String) throws -> Manifest {
        guard let manifest = manifests[name] else {
            throw LiveReportsError.unknownManifest(name, known: manifests.keys.sorted())
        }
        return manifest
    }

    /// Runs `work` after the practitioner's work before it: one report of theirs is made at a time.
    func inLane<T: Sendable>(of practitioner: String, _ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let (task, lane) = state.withLock { state in
            let previous = state.lanes[practitioner]
            let task = Task {
                await previous?.value
                return try await work()
            }
            let lane = Task { _ = try? await task.value }
            state.lanes[practitioner] = lane
            return (task, lane)
        }
        // The last work of a lane takes the lane with it: an idle practitioner holds no task (and no result).
        defer { state.withLock { state in if state.lanes[practitioner] == lane { state.lanes[practitioner] = nil } } }
        return try await task.value
    }

    /// Makes the report of `key` as of now and holds it: a new generation, sent to its subscribers, when it differs
    /// from the one held (besides its instant). With `onlyIfOld`, a report held and made today is returned as it
    /// is (a request that waited behind another one that made it). Returns `nil` when the practitioner is gone
    /// (everything of theirs is dropped). Run it in the practitioner's lane.
    func refresh(_ key: Key, _ manifest: Manifest, onlyIfOld: Bool) async throws -> Held? {
        var current = manifest
        current.environment.asOf = now()
        let environment = current.environment
        let day = environment.dayBoundary.day(of: environment.asOf).dayNumber
        if onlyIfOld, let held = state.withLock({ $0.held[key] }), held.day == day { return held }
        let entries = try current.prepare(modules: modules)
        guard let (report, runner) = try await make(key.practitioner, entries, environment) else {
            forget(key.practitioner)
            return nil
        }
        if runner.lastCatchUp?.mayBeBehind == true {
            // A transaction that ended during the change log's read held it back: the probe's retry makes the
            // report again in a new read, where waiting for the next change could wait for good.
            state.withLock { _ = $0.needsRefresh.insert(key.practitioner) }
        }
        let position = runner.keptDigest?.historyToken.sequence ?? 0
        let json = (renderers.renderer(for: .json) ?? JSONReportRenderer()).render(report)
        let content = Self.content(of: report)
        let (held, sent) = state.withLock { state -> (Held, [(AsyncStream<LiveReport>.Continuation, LiveReport)]) in
            state.refreshes += 1
            if var held = state.held[key], held.content == content {
                held.day = day
                held.failed = false
                state.held[key] = held
                return (held, [])
            }
            let generation = max(state.generations[key.practitioner, default: 0] + 1, position)
            state.generations[key.practitioner] = generation
            let storeOutcomes = Dictionary(uniqueKeysWithValues: entries.indices.filter { !entries[$0].prepared.readsDigest }
                .map { ($0, report.entries[$0].outcome) })
            let held = Held(generation: generation, day: day, asOf: report.asOf, content: content, notice: report.notice,
                            storeOutcomes: storeOutcomes, rendered: [ReportFormat.json.name: json])
            state.held[key] = held
            let update = Self.json(of: held, key, stale: state.isStale)
            return (held, (state.subscribers[key] ?? [:]).values.map { ($0, update) })
        }
        for (continuation, update) in sent { continuation.yield(update) }
        return held
    }

    /// The report `held` was rendered from, made again from the practitioner's digest in memory as of its instant
    /// (the same bytes in every format, also while the store is away); from the store only when no digest is held
    /// (the practitioner's runner was replaced meanwhile); `nil` when the store then has no such practitioner. Run
    /// it in the practitioner's lane.
    func madeAgain(_ held: Held, _ key: Key, _ manifest: Manifest) async throws -> Report? {
        // The statistics are prepared as of the held report's instant too: their filters carry it.
        var current = manifest
        current.environment.asOf = held.asOf
        let environment = current.environment
        let entries = try current.prepare(modules: modules)
        if let runner = reports.runner(of: key.practitioner),
           let report = runner.reportFromKeptDigest(entries, environment: environment, storeOutcomes: held.storeOutcomes,
                                                    notice: held.notice) {
            return report
        }
        return try await make(key.practitioner, entries, environment)?.0
    }

    /// The report of the practitioner `id` from their digest (caught up with the store), with its demo notice, and
    /// the runner that made it; `nil` when the store has no such practitioner. Run it in the practitioner's lane.
    ///
    /// - Throws: the store's error when it failed (not a statistic): the report held, if any, stands.
    func make(_ id: String, _ entries: [PreparedEntry], _ environment: ReportEnvironment) async throws -> (Report, ReportRunner)? {
        guard var report = try await reports.report(for: id, entries, environment: environment),
              let runner = reports.runner(of: id), let rowID = runner.practitioner else { return nil }
        if let failure = runner.lastStoreFailure { throw failure }
        let scope = try FetchScope.practitioner(rowID)
        report.notice = try await Report.demoNotice(for: container, asOf: report.asOf, scope: scope)
        return (report, runner)
    }

    /// Drops everything held of a practitioner the store no longer has, and ends their subscriptions: the caller
    /// that removed them need not wait for the change log.
    ///
    /// ```swift
    /// if try await Practitioners.remove("alice", from: container) != nil { reports.forget("alice") }
    /// ```
    public func forget(_ practitioner: String) {
        reports.drop(practitioner)
        let ended = state.withLock { state in
            let keys = state.held.keys.filter { $0.practitioner == practitioner }
            for key in keys { state.held[key] = nil }
            return keys.flatMap { key in state.subscribers.removeValue(forKey: key)?.values.map { $0 } ?? [] }
        }
        if !ended.isEmpty { log("\(practitioner): no longer in the store; \(ended.count) subscription(s) ended") }
        for continuation in ended { continuation.finish() }
    }

    /// The hash of what `report` says, whatever instant it was made as of: two reports that say the same have the
    /// same; two that differ, the same only by a 64-bit hash's chance.
    static func content(of report: Report) -> Int {
        var report = report
        report.asOf = Date(timeIntervalSince1970: 0)
        return report.hashValue
    }

    static func json(of held: Held, _ key: Key, stale: Bool) -> LiveReport {
        LiveReport(practitioner: key.practitioner, manifest: key.manifest, format: .json, generation: held.generation,
                   body: held.rendered[ReportFormat.json.name] ?? "", asOf: held.asOf, isStale: stale || held.failed)
    }
}
