import Foundation
import PracticeLog
import StillpointCore
import StillpointManifest
import StillpointPostgres
import StillpointPostgresTestSupport
@testable import StillpointStatistics
@testable import StillpointReport
import StillpointTestSupport
import Testing

/// What ``LiveReports`` holds per practitioner beyond their digest and report, on SQLite and PostgreSQL: a service
/// of ten thousand practitioners keeps every one of them, so nothing that only served a request may stay.
@Suite("live reports' memory", .serialized)
struct LiveReportsMemoryTests {
    typealias StoreKind = PracticeStore
    typealias Live = LiveReportsTests

    @Test(arguments: StoreKind.all)
    func anIdlePractitionerHoldsNoLane(_ store: StoreKind) async throws {
        let container = try await Live.open(store, holding: [
            .upsert("alice", key: "a1", day: 1, minutes: 20, kind: "yoga"),
            .upsert("bob", key: "b1", day: 2, minutes: 30, kind: "meditation"),
        ])
        defer { try? container.close() }
        let engine = try Live.engine(container)
        let alice = try #require(try await engine.updates(of: "alice"))
        #expect(Live.sessionCount(await Live.next(alice)) == 1)
        // First requests, several at once, a pinned report, and a refresh after a commit: each ran in a lane.
        async let first = engine.report(for: "bob")
        async let second = engine.report(for: "bob", format: .html)
        _ = try await (first, second)
        _ = try await engine.report(for: "alice", asOf: Live.Property.asOf)
        try await Live.Property.apply(.upsert("alice", key: "a2", day: 2, minutes: 25, kind: "yoga"), to: container)
        #expect(Live.sessionCount(await Live.next(alice) { Live.sessionCount($0) == 2 }) == 2)

        #expect(await Live.eventually { engine.state.withLock { $0.lanes.isEmpty } })
        await engine.shutdown()
    }

    /// A held digest keeps its rows and running sums between reports, not the summaries (a line per day with
    /// practice) its last report's statistics read; the next report, after a change, is the same as a new one's.
    @Test(arguments: StoreKind.all)
    func aWarmDigestHoldsNoSummaries(_ store: StoreKind) async throws {
        let container = try await Live.open(store, holding: [
            .upsert("alice", key: "a1", day: 1, minutes: 20, kind: "yoga"),
            .upsert("alice", key: "a2", day: 3, minutes: 40, kind: "meditation"),
            .upsert("bob", key: "b1", day: 2, minutes: 30, kind: "meditation"),
        ])
        defer { try? container.close() }
        let engine = try Live.engine(container)
        let alice = try #require(try await engine.updates(of: "alice"))
        #expect(Live.sessionCount(await Live.next(alice)) == 2)
        _ = try await engine.report(for: "bob")
        #expect(engine.reports.keptDigests.count == 2)
        #expect(engine.reports.keptDigests.values.allSatisfy { $0.heldSummaries == 0 })

        try await Live.Property.apply(.upsert("alice", key: "a3", day: 2, minutes: 25, kind: "yoga"), to: container)
        let changed = try #require(await Live.next(alice) { Live.sessionCount($0) == 3 })
        #expect(engine.reports.keptDigests.values.allSatisfy { $0.heldSummaries == 0 })
        let fresh = try Live.engine(container)
        #expect(try await fresh.report(for: "alice")?.body == changed.body)
        await fresh.shutdown()
        await engine.shutdown()
    }

    /// The property tests' manifest and a custom statistic that reads the store itself (its `key` is not in the
    /// digest): what a held report made again from the digest must take from what was kept.
    static let manifestWithAStoreStatistic = Live.Property.manifest.replacingOccurrences(
        of: "custom_statistics:\n", with: "custom_statistics:\n  a_keys: {function: count, where: \"key BEGINSWITH 'a'\"}\n")
        + "\n  - id: a_keys"

    static func engineWithAStoreStatistic(_ container: PersistentContainer,
                                          log: @escaping @Sendable (String) -> Void = Live.printToStandardError) throws -> LiveReports {
        LiveReports(container: container, manifests: [LiveReports.defaultManifest: try Manifest(yaml: manifestWithAStoreStatistic)],
                    modules: Live.modules, pollInterval: .milliseconds(50), probeInterval: .milliseconds(100),
                    now: { Live.Property.asOf }, log: log)
    }

    /// The report `PractitionerReports` makes of `id` with the manifest above, as of the engine's instant: what the
    /// service served before it stopped holding the structured report.
    static func reference(_ id: String, _ container: PersistentContainer) async throws -> Report {
        var manifest = try Manifest(yaml: manifestWithAStoreStatistic)
        manifest.environment.asOf = Live.Property.asOf
        return try #require(try await PractitionerReports(container: container)
            .report(for: id, try manifest.prepare(modules: Live.modules), environment: manifest.environment))
    }

    /// A held report is its texts only: no structured ``Report`` in the service and no statistic's result in the
    /// practitioner's runner. Every other format, made again from the digest when asked for, is byte for byte what
    /// the report rendered, also after a change, and a statistic that reads the store keeps its value.
    @Test(arguments: StoreKind.all)
    func aHeldReportKeepsNoStructuredReportAndMakesEveryFormatAgainAlike(_ store: StoreKind) async throws {
        let container = try await Live.open(store, holding: [
            .upsert("alice", key: "a1", day: 1, minutes: 20, kind: "yoga"),
            .upsert("alice", key: "b2", day: 3, minutes: 40, kind: "meditation"),
        ])
        defer { try? container.close() }
        let engine = try Self.engineWithAStoreStatistic(container)
        let alice = try #require(try await engine.updates(of: "alice"))
        let first = try #require(await Live.next(alice))
        let key = LiveReports.Key(practitioner: "alice", manifest: LiveReports.defaultManifest)
        let held = try #require(engine.state.withLock { $0.held[key] })
        #expect(!Mirror(reflecting: held).children.contains { $0.value is Report })
        #expect(held.storeOutcomes.count == 1)
        #expect(engine.reports.runner(of: "alice")?.keptResultCount == 0)

        var reference = try await Self.reference("alice", container)
        #expect(reference.value(of: "a_keys") == .quantity(1, .count))
        #expect(first.body == JSONReportRenderer().render(reference))
        for format in ReportFormat.builtIn {
            let renderer = try #require(ReportRenderers.builtIn.renderer(for: format))
            let live = try #require(try await engine.report(for: "alice", format: format))
            #expect(live.body == renderer.render(reference), "\(format.name) made again from the digest")
            #expect(live.generation == first.generation)
        }

        try await Live.Property.apply(.upsert("alice", key: "a3", day: 2, minutes: 25, kind: "yoga"), to: container)
        let changed = try #require(await Live.next(alice) { Live.sessionCount($0) == 3 })
        reference = try await Self.reference("alice", container)
        #expect(reference.value(of: "a_keys") == .quantity(2, .count))
        #expect(changed.body == JSONReportRenderer().render(reference))
        for format in [ReportFormat.html, .markdown, .csv, .text] {
            let renderer = try #require(ReportRenderers.builtIn.renderer(for: format))
            #expect(try await engine.report(for: "alice", format: format)?.body == renderer.render(reference))
        }
        #expect(engine.reports.runner(of: "alice")?.keptResultCount == 0)
        await engine.shutdown()
    }

    /// While PostgreSQL is away, a format not rendered yet is made again from the digest in memory: the same
    /// bytes as before, marked stale.
    @Test(.enabled(if: PostgresTestServer.isWanted))
    func anotherFormatIsMadeFromMemoryWhilePostgreSQLIsAway() async throws {
        let server = try PostgresTestServer.ownServer()
        let uri = try server.makeDatabase("live_stale_formats")
        let container = try PersistentContainer(schema: Session.schema, postgres: uri)
        defer { try? container.close() }
        try await Live.Property.apply(.upsert("alice", key: "a1", day: 1, minutes: 20, kind: "yoga"), to: container)
        try await Live.Property.apply(.upsert("alice", key: "b1", day: 2, minutes: 30, kind: "meditation"), to: container)
        let engine = try Self.engineWithAStoreStatistic(container, log: { _ in })
        let json = try #require(try await engine.report(for: "alice"))
        let reference = try await Self.reference("alice", container)
        #expect(json.body == JSONReportRenderer().render(reference))

        try server.stop()
        #expect(await Live.eventually { engine.isStale })
        for format in [ReportFormat.html, .markdown, .csv, .text] {
            let renderer = try #require(ReportRenderers.builtIn.renderer(for: format))
            let stale = try #require(try await engine.report(for: "alice", format: format))
            #expect(stale.isStale)
            #expect(stale.body == renderer.render(reference), "\(format.name) while the store is away")
            #expect(stale.generation == json.generation)
        }
        try server.start()
        await engine.shutdown()
    }
}
