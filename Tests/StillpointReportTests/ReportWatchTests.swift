import Foundation
import PracticeLog
import StillpointCatalog
import StillpointCore
import StillpointManifest
import StillpointReport
import StillpointSQLite
import StillpointStatistics
import Testing

/// `report --watch`'s loop as a library: a change to the store brings a refreshed report, until the watch stops.
@Suite("report watch")
struct ReportWatchTests {
    static let asOf = Date(timeIntervalSince1970: 1_718_000_000)  // 2024-06-10T06:13:20Z

    func insert(_ count: Int, into container: PersistentContainer, from first: Int, for id: String = Practitioner.defaultID) async throws {
        try await container.performBackgroundTask { context in
            let practitioner = try Practitioners.object(id, in: context)
            for index in first..<(first + count) {
                let session = context.insert(Session.self)
                try session.set(Session.practitioner, to: practitioner)
                session[Session.start] = Self.asOf.addingTimeInterval(-86_400 - Double(index) * 3_600)
                session[Session.duration] = 600
                session[Session.kind] = "meditation"
                session[Session.key] = "watch-\(index)"
            }
            try await context.save()
        }
    }

    /// The store, a first report over its two sessions, and the watch made before it.
    func start() async throws -> (container: PersistentContainer, watch: ReportWatch, changes: StoreWatch, report: Report) {
        let container = try PersistentContainer(schema: Session.schema, location: .inMemory)
        try await insert(2, into: container, from: 0)
        var manifest = try Manifest(yaml: "version: 1\ntime_zone: UTC\nstatistics: [session_count, total_time]\n")
        manifest.environment.asOf = Self.asOf
        let modules = ModuleCatalog(BuiltInStatistics.modules)
        let entries = try manifest.prepare(modules: modules)
        let runner = ReportRunner(container: container)
        let changes = StoreWatch(container)
        let report = await runner.run(entries, environment: manifest.environment)
        let watch = ReportWatch(runner: runner, manifest: manifest, modules: modules, entries: entries, pinsAsOf: true)
        return (container, watch, changes, report)
    }

    @Test func aChangeBringsARefreshedReport() async throws {
        let (container, watch, changes, report) = try await start()
        #expect(report.value(of: "session_count") == .quantity(2, .count))
        let delivered = LockedState<[Report]>([])
        let following = Task {
            try await watch.follow(changes, from: report) { refreshed in delivered.withLock { $0.append(refreshed) } }
        }
        try await insert(1, into: container, from: 2)
        let deadline = ContinuousClock.now + .seconds(60)
        while delivered.withLock({ $0.isEmpty }) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        changes.stop()
        let last = try await following.value
        let reports = delivered.withLock { $0 }
        #expect(!reports.isEmpty)
        #expect(reports.last == last)
        #expect(last.value(of: "session_count") == .quantity(3, .count))
        #expect(last.value(of: "total_time") == .quantity(1_800, .seconds))
        // Pinned: a refresh is as of the manifest's instant, not the clock's.
        #expect(last.asOf == Self.asOf)
        #expect(last.entries.map(\.id) == report.entries.map(\.id))
    }

    @Test func aPractitionersWatchIsNotRenderedAgainForAnotherPractitionersChange() async throws {
        let container = try PersistentContainer(schema: Session.schema, location: .inMemory)
        try await insert(2, into: container, from: 0)
        try await insert(1, into: container, from: 10, for: "bob")
        let alice = try await Practitioners.rowID(of: Practitioner.defaultID, in: container)
        var manifest = try Manifest(yaml: "version: 1\ntime_zone: UTC\nstatistics: [session_count, total_time]\n")
        manifest.environment.asOf = Self.asOf
        let modules = ModuleCatalog(BuiltInStatistics.modules)
        let entries = try manifest.prepare(modules: modules)
        let runner = ReportRunner(container: container, practitioner: alice)
        let changes = StoreWatch(container)
        let report = await runner.run(entries, environment: manifest.environment)
        #expect(report.value(of: "session_count") == .quantity(2, .count))
        let refreshes = LockedState(0)
        let watch = ReportWatch(runner: runner, manifest: manifest, modules: modules, entries: entries, pinsAsOf: true,
                                log: { line in if line.contains("refreshing") { refreshes.withLock { $0 += 1 } } })
        let delivered = LockedState<[Report]>([])
        let following = Task {
            try await watch.follow(changes, from: report) { refreshed in delivered.withLock { $0.append(refreshed) } }
        }
        // Bob's session: the watch sees it, and renders nothing.
        try await insert(1, into: container, from: 11, for: "bob")
        let deadline = ContinuousClock.now + .seconds(60)
        while refreshes.withLock({ $0 }) == 0 && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        // Then the practitioner's own: rendered.
        try await insert(1, into: container, from: 2)
        while delivered.withLock({ $0.isEmpty }) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        changes.stop()
        let last = try await following.value
        #expect(refreshes.withLock { $0 } >= 2)
        #expect(delivered.withLock { $0.count } == 1)
        #expect(last.value(of: "session_count") == .quantity(3, .count))
    }

    @Test func aStoppedWatchDeliversNothingAndKeepsTheReport() async throws {
        let (container, watch, changes, report) = try await start()
        let delivered = LockedState(0)
        let following = Task {
            try await watch.follow(changes, from: report, isStopped: { true }) { _ in delivered.withLock { $0 += 1 } }
        }
        try await insert(1, into: container, from: 2)
        // The change reached the loop, which was told to stop there.
        let last = try await following.value
        #expect(delivered.withLock { $0 } == 0)
        #expect(last == report)
    }

    @Test func withoutAPinnedInstantARefreshIsAsOfNow() async throws {
        let (container, pinned, changes, report) = try await start()
        var watch = pinned
        let now = Self.asOf.addingTimeInterval(3_600)
        watch.pinsAsOf = false
        watch.now = { now }
        let following = Task { try await watch.follow(changes, from: report) { _ in changes.stop() } }
        try await insert(1, into: container, from: 2)
        let last = try await following.value
        #expect(last.asOf == now)
        #expect(last.value(of: "session_count") == .quantity(3, .count))
    }
}
