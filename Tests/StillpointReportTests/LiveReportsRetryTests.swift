import Foundation
@testable import StillpointReport
import StillpointTestSupport
import Testing

/// A report whose refresh failed on the store is made again by the probe, without waiting for another commit to
/// the store (which may never come): it is served stale only until the store answers again.
@Suite("live reports retry a failed refresh", .serialized)
struct LiveReportsRetryTests {
    typealias Live = LiveReportsTests

    @Test(arguments: PracticeStore.all)
    func aFailedRefreshIsMadeAgainWithoutAnotherCommit(_ store: PracticeStore) async throws {
        let container = try await Live.open(store, holding: [.upsert("alice", key: "a1", day: 1, minutes: 20, kind: "yoga")])
        defer { try? container.close() }
        let engine = try Live.engine(container)
        let before = try #require(try await engine.report(for: "alice"))
        #expect(await Live.eventually { engine.metrics.changeLogLag == 0 })
        let refreshes = engine.metrics.refreshes

        // What `apply` leaves when the store failed a refresh: the report marked failed, its practitioner to do again.
        let key = LiveReports.Key(practitioner: "alice", manifest: LiveReports.defaultManifest)
        engine.state.withLock { state in
            state.held[key]?.failed = true
            state.needsRefresh.insert("alice")
        }
        #expect(try await engine.report(for: "alice")?.isStale == true)

        // Nothing is committed: the probe (every 100 ms here) has it made again.
        #expect(try await Live.eventually { try await engine.report(for: "alice")?.isStale == false })
        let after = try #require(try await engine.report(for: "alice"))
        #expect(after.body == before.body)
        #expect(after.generation == before.generation)
        #expect(engine.metrics.refreshes == refreshes + 1)
        #expect(await Live.eventually { engine.metrics.changeLogLag == 0 })
        await engine.shutdown()
    }
}
