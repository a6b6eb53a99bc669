import Foundation
import PracticeLog
import StillpointCore
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
}
