import Foundation
import PracticeLog
import StillpointCatalog
import StillpointCore
import StillpointManifest
import StillpointPostgres
import StillpointPostgresTestSupport
import StillpointReport
import StillpointSQLite
import StillpointStatistics
import StillpointTestSupport
import Testing

/// The report service's engine (LiveReports), on SQLite and PostgreSQL: reports made once and answered from
/// memory, kept current from the change log for the practitioners a change touches only, sent to subscribers with
/// growing generations, resumed after a generation, served stale while the store is away and caught up after,
/// and followed by two engines ("instances") over one PostgreSQL database.
@Suite("live reports", .serialized)
struct LiveReportsTests {
    typealias StoreKind = PracticeStore
    typealias Property = PractitionerReportsPropertyTests

    static let modules = ModuleCatalog(BuiltInStatistics.modules)

    static func manifests() throws -> [String: Manifest] {
        [LiveReports.defaultManifest: try Manifest(yaml: Property.manifest),
         "yoga": try Manifest(yaml: "version: 1\ntime_zone: UTC\nstatistics:\n  - {id: session_count, parameters: {kinds: [yoga]}}\n")]
    }

    /// An engine over `container`, reporting as of the property tests' instant, probing the store often.
    static func engine(_ container: PersistentContainer, now: @escaping @Sendable () -> Date = { Property.asOf },
                       log: @escaping @Sendable (String) -> Void = Self.printToStandardError) throws -> LiveReports {
        LiveReports(container: container, manifests: try manifests(), modules: modules, pollInterval: .milliseconds(50),
                    probeInterval: .milliseconds(100), now: now, log: log)
    }

    /// What an engine logs only when something goes wrong (a refresh or the store failed): shown with the test's
    /// output, so that a test that waited in vain says why.
    @Sendable static func printToStandardError(_ note: String) {
        FileHandle.standardError.write(Data("live reports: \(note)\n".utf8))
    }

    /// A new store of `kind` holding the sessions `steps` make.
    static func open(_ kind: StoreKind, holding steps: [Property.Step]) async throws -> PersistentContainer {
        let container = try kind.open(schema: Session.schema)
        for step in steps { try await Property.apply(step, to: container) }
        return container
    }

    /// Another container on the same store: another process, or another instance's.
    static func another(like container: PersistentContainer) throws -> PersistentContainer {
        if let uri = container.location.postgresURI { return try PersistentContainer(schema: Session.schema, postgres: uri) }
        return try PersistentContainer(schema: Session.schema, location: container.location)
    }

    /// The `session_count` of a JSON report.
    static func sessionCount(_ live: LiveReport?) -> Double? {
        guard let data = live?.body.data(using: .utf8),
              let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let statistics = document["statistics"] as? [[String: Any]],
              let entry = statistics.first(where: { $0["id"] as? String == "session_count" }) else { return nil }
        return entry["value"] as? Double
    }

    /// The first update of `stream` that `matches`, or `nil` when none comes within `timeout` (which ends the stream).
    static func next(_ stream: AsyncStream<LiveReport>, within timeout: Duration = .seconds(30),
                     where matches: @escaping @Sendable (LiveReport) -> Bool = { _ in true }) async -> LiveReport? {
        await withTaskGroup(of: LiveReport?.self) { group in
            group.addTask {
                for await update in stream where matches(update) { return update }
                return nil
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Waits until `condition` holds, for up to `timeout`; returns whether it did.
    static func eventually(within timeout: Duration = .seconds(30), _ condition: () async throws -> Bool) async rethrows -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while clock.now < deadline {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return try await condition()
    }

    @Test(arguments: StoreKind.all)
    func aReportIsMadeOnceThenAnsweredFromMemory(_ store: StoreKind) async throws {
        let container = try await Self.open(store, holding: [
            .upsert("alice", key: "a1", day: 1, minutes: 20, kind: "yoga"),
            .upsert("bob", key: "b1", day: 2, minutes: 30, kind: "meditation"),
        ])
        defer { try? container.close() }
        let engine = try Self.engine(container)

        let first = try #require(try await engine.report(for: "alice"))
        #expect(Self.sessionCount(first) == 1)
        #expect(!first.isStale)
        let again = try #require(try await engine.report(for: "alice"))
        #expect(again == first)
        #expect(engine.metrics.cacheMisses == 1)
        #expect(engine.metrics.cacheHits == 1)

        // The same bytes as the report made from the practitioner's sessions by PractitionerReports and the renderer.
        var manifest = try Manifest(yaml: Property.manifest)
        manifest.environment.asOf = Property.asOf
        let kept = try #require(try await PractitionerReports(container: container)
            .report(for: "alice", try manifest.prepare(modules: Self.modules), environment: manifest.environment))
        #expect(first.body == JSONReportRenderer().render(kept))
        let html = try #require(try await engine.report(for: "alice", format: .html))
        #expect(html.body == HTMLReportRenderer().render(kept))
        #expect(html.generation == first.generation)

        // Another manifest is another report of the same practitioner; Bob's is his own.
        #expect(Self.sessionCount(try await engine.report(for: "alice", manifest: "yoga")) == 1)
        #expect(Self.sessionCount(try await engine.report(for: "bob", manifest: "yoga")) == 0)
        #expect(Self.sessionCount(try await engine.report(for: "bob")) == 1)
        #expect(try await engine.report(for: "carol") == nil)
        await #expect(throws: LiveReportsError.unknownManifest("nope", known: ["default", "yoga"])) {
            try await engine.report(for: "alice", manifest: "nope")
        }
        await #expect(throws: LiveReportsError.unknownFormat("tsv", known: ["text", "json", "markdown", "csv", "html"])) {
            try await engine.report(for: "alice", format: ReportFormat(name: "tsv", fileExtension: "tsv"))
        }

        let metrics = engine.metrics
        #expect(metrics.digests == 2)
        #expect(metrics.digestBytes > 0)
        #expect(metrics.reports == 4)
        #expect(metrics.reportBytes >= first.body.utf8.count + html.body.utf8.count)
        #expect(metrics.changeLogLag == 0)
        #expect(!metrics.isStale)
        await engine.shutdown()
    }

    @Test(arguments: StoreKind.all)
    func aCommitFromElsewhereReachesItsPractitionersSubscriptionOnly(_ store: StoreKind) async throws {
        let container = try await Self.open(store, holding: [
            .upsert("alice", key: "a1", day: 1, minutes: 20, kind: "yoga"),
            .upsert("bob", key: "b1", day: 2, minutes: 30, kind: "yoga"),
        ])
        defer { try? container.close() }
        let engine = try Self.engine(container)
        let alice = try #require(try await engine.updates(of: "alice"))
        let bob = try #require(try await engine.updates(of: "bob"))
        let aliceNow = try #require(await Self.next(alice))
        let bobNow = try #require(await Self.next(bob))
        #expect(Self.sessionCount(aliceNow) == 1)
        #expect(Self.sessionCount(bobNow) == 1)

        // Saved through another container: another process (SQLite) or another server's connection (PostgreSQL).
        let other = try Self.another(like: container)
        defer { try? other.close() }
        try await Property.apply(.upsert("alice", key: "a2", day: 3, minutes: 10, kind: "yoga"), to: other)
        let aliceNext = try #require(await Self.next(alice))
        #expect(Self.sessionCount(aliceNext) == 2)
        #expect(aliceNext.generation > aliceNow.generation)
        #expect(try await engine.report(for: "alice") == aliceNext)

        // Bob's stream got nothing of Alice's: its next report is the one his own session makes.
        try await Property.apply(.upsert("bob", key: "b2", day: 4, minutes: 10, kind: "yoga"), to: other)
        let bobNext = try #require(await Self.next(bob))
        #expect(Self.sessionCount(bobNext) == 2)
        #expect(bobNext.practitioner == "bob")
        #expect(try await engine.report(for: "alice") == aliceNext)
        #expect(await Self.eventually { engine.metrics.changeLogLag == 0 })
        await engine.shutdown()
        #expect(await Self.next(alice) == nil)
    }

    @Test(arguments: StoreKind.all)
    func aSessionMovedBetweenPractitionersUpdatesBoth(_ store: StoreKind) async throws {
        let container = try await Self.open(store, holding: [
            .upsert("alice", key: "k1", day: 1, minutes: 20, kind: "yoga"),
            .upsert("alice", key: "k2", day: 2, minutes: 20, kind: "yoga"),
            .upsert("bob", key: "b1", day: 2, minutes: 30, kind: "yoga"),
            .upsert("carol", key: "c1", day: 2, minutes: 30, kind: "yoga"),
        ])
        defer { try? container.close() }
        let engine = try Self.engine(container)
        let alice = try #require(try await engine.updates(of: "alice"))
        let bob = try #require(try await engine.updates(of: "bob"))
        let carol = try #require(try await engine.report(for: "carol"))
        #expect(Self.sessionCount(await Self.next(alice)) == 2)
        #expect(Self.sessionCount(await Self.next(bob)) == 1)
        let refreshes = engine.metrics.refreshes

        try await Property.apply(.move("alice", key: "k1", to: "bob"), to: container)
        #expect(Self.sessionCount(await Self.next(alice)) == 1)
        #expect(Self.sessionCount(await Self.next(bob)) == 2)
        // Carol's report was not made again: the move touched Alice and Bob only.
        #expect(engine.metrics.refreshes == refreshes + 2)
        #expect(try await engine.report(for: "carol") == carol)

        // Deleted: only the digest that held it knows whose it was.
        try await Property.apply(.delete("bob", key: "k1"), to: container)
        #expect(Self.sessionCount(await Self.next(bob)) == 1)
        #expect(try await engine.report(for: "alice").map(Self.sessionCount) == 1)

        // Removed: the subscription ends, and the id answers nil like one never there.
        try await Property.apply(.removePractitioner("bob"), to: container)
        #expect(await Self.next(bob) == nil)
        #expect(try await engine.report(for: "bob") == nil)
        await engine.shutdown()
    }

    @Test(arguments: StoreKind.all)
    func aSubscriptionResumesAfterAGeneration(_ store: StoreKind) async throws {
        let container = try await Self.open(store, holding: [
            .upsert("alice", key: "a1", day: 1, minutes: 20, kind: "yoga"),
        ])
        defer { try? container.close() }
        let engine = try Self.engine(container)
        let current = try #require(try await engine.report(for: "alice"))

        // Behind: the current report at once.
        let behind = try #require(try await engine.updates(of: "alice", after: current.generation - 1))
        #expect(await Self.next(behind) == current)
        // Up to date: nothing until the next change, which comes next.
        let upToDate = try #require(try await engine.updates(of: "alice", after: current.generation))
        try await Property.apply(.upsert("alice", key: "a2", day: 2, minutes: 20, kind: "yoga"), to: container)
        // Read now: on PostgreSQL the position moves on later with other databases' transactions.
        let committed = try container.currentHistoryToken().sequence
        let next = try #require(await Self.next(upToDate))
        #expect(Self.sessionCount(next) == 2)
        #expect(next.generation > current.generation)
        // Generations are at least the change-log position the report is current with.
        #expect(next.generation >= committed)
        await engine.shutdown()
    }

    @Test(.enabled(if: PostgresTestServer.isWanted))
    func twoEnginesOverOnePostgreSQLSeeEachOthersCommits() async throws {
        let uri = try PostgresTestServer.shared().makeDatabase("live")
        let first = try PersistentContainer(schema: Session.schema, postgres: uri)
        let second = try PersistentContainer(schema: Session.schema, postgres: uri)
        defer { try? first.close(); try? second.close() }
        try await Property.apply(.upsert("alice", key: "a1", day: 1, minutes: 20, kind: "yoga"), to: first)
        let instanceA = try Self.engine(first)
        let instanceB = try Self.engine(second)
        let onA = try #require(try await instanceA.updates(of: "alice"))
        let onB = try #require(try await instanceB.updates(of: "alice"))
        #expect(Self.sessionCount(await Self.next(onA)) == 1)
        #expect(Self.sessionCount(await Self.next(onB)) == 1)

        // Saved through instance A's container (a session posted to A): on A's stream and on B's.
        try await Property.apply(.upsert("alice", key: "a2", day: 2, minutes: 20, kind: "yoga"), to: first)
        #expect(Self.sessionCount(await Self.next(onA)) == 2)
        #expect(Self.sessionCount(await Self.next(onB)) == 2)
        // And through B's.
        try await Property.apply(.upsert("alice", key: "a3", day: 3, minutes: 20, kind: "yoga"), to: second)
        #expect(Self.sessionCount(await Self.next(onA)) == 3)
        #expect(Self.sessionCount(await Self.next(onB)) == 3)
        await instanceA.shutdown()
        await instanceB.shutdown()
    }

    @Test(.enabled(if: PostgresTestServer.isWanted))
    func reportsAreServedStaleWhilePostgreSQLIsAwayAndCatchUpAfter() async throws {
        let server = try PostgresTestServer.ownServer()
        let uri = try server.makeDatabase("live_stale")
        let container = try PersistentContainer(schema: Session.schema, postgres: uri)
        defer { try? container.close() }
        try await Property.apply(.upsert("alice", key: "a1", day: 1, minutes: 20, kind: "yoga"), to: container)
        try await Property.apply(.upsert("bob", key: "b1", day: 1, minutes: 20, kind: "yoga"), to: container)
        let notes = LockedState<[String]>([])
        let engine = try Self.engine(container, log: { note in notes.withLock { $0.append(note) } })
        let alice = try #require(try await engine.updates(of: "alice"))
        let before = try #require(await Self.next(alice))
        #expect(!before.isStale)

        try server.stop()
        #expect(await Self.eventually { engine.isStale })
        // From memory, the same bytes, marked stale; a report not held cannot be made.
        let stale = try #require(try await engine.report(for: "alice"))
        #expect(stale.isStale)
        #expect(stale.body == before.body)
        #expect(stale.generation == before.generation)
        #expect(engine.metrics.isStale)
        await #expect(throws: StoreError.self) { try await engine.report(for: "bob") }

        try server.start()
        // Saved as soon as the server is back, perhaps before the engine's listener is: caught up from the log.
        let other = try PersistentContainer(schema: Session.schema, postgres: uri)
        defer { try? other.close() }
        try await Property.apply(.upsert("alice", key: "a2", day: 2, minutes: 20, kind: "yoga"), to: other)
        let caughtUp = await Self.next(alice) { Self.sessionCount($0) == 2 }
        #expect(caughtUp != nil)
        #expect(await Self.eventually { !engine.isStale && engine.metrics.changeLogLag == 0 },
                "\(engine.metrics); the engine's log: \(notes.withLock { $0 }.joined(separator: "; "))")
        // What it said: the store gone, back, and caught up with.
        let said = notes.withLock { $0 }
        #expect(said.contains { $0.hasPrefix("the store cannot be reached") })
        #expect(said.contains { $0.hasPrefix("the store is back") })
        #expect(said.contains { $0.hasPrefix("caught up with the store") })
        #expect(try await engine.report(for: "alice").map { Self.sessionCount($0) == 2 && !$0.isStale } == true)
        #expect(Self.sessionCount(try await engine.report(for: "bob")) == 1)
        await engine.shutdown()
    }

    @Test(arguments: StoreKind.all)
    func aReportAsOfAnInstantIsMadeFromTheHeldDigestAndNotHeld(_ store: StoreKind) async throws {
        let container = try await Self.open(store, holding: [
            .upsert("alice", key: "a1", day: 1, minutes: 20, kind: "yoga"),
            .upsert("alice", key: "a2", day: 9, minutes: 20, kind: "yoga"),
        ])
        defer { try? container.close() }
        let engine = try Self.engine(container)
        let held = try #require(try await engine.report(for: "alice"))
        let asOf = Property.asOf.addingTimeInterval(-5 * 86_400)

        let pinned = try #require(try await engine.report(for: "alice", format: .markdown, asOf: asOf))
        var manifest = try Manifest(yaml: Property.manifest)
        manifest.environment.asOf = asOf
        let expected = try #require(try await PractitionerReports(container: container)
            .report(for: "alice", try manifest.prepare(modules: Self.modules), environment: manifest.environment))
        #expect(pinned.body == MarkdownReportRenderer().render(expected))
        #expect(pinned.generation == held.generation)
        #expect(pinned.asOf == asOf)
        // Not held: the report of now is as it was.
        #expect(engine.metrics.reports == 1)
        #expect(try await engine.report(for: "alice") == held)
        #expect(try await engine.report(for: "nobody", asOf: asOf) == nil)
        await engine.shutdown()
    }

    @Test(arguments: StoreKind.all)
    func theDemoNoticeIsOfThePractitionersOwnSessions(_ store: StoreKind) async throws {
        let container = try store.open(schema: Session.schema)
        defer { try? container.close() }
        try await container.performBackgroundTask { context in
            let session = context.insert(Session.self)
            try session.set(Session.practitioner, to: try Practitioners.object(Practitioner.defaultID, in: context))
            session[Session.start] = Property.asOf.addingTimeInterval(-86_400)
            session[Session.duration] = 600
            session[Session.kind] = "meditation"
            session[Session.source] = DemoHistory.source
            session[Session.key] = "demo-1"
            try await context.save()
        }
        try await Property.apply(.upsert("alice", key: "a1", day: 1, minutes: 20, kind: "yoga"), to: container)
        let engine = try Self.engine(container)
        let demo = try #require(try await engine.report(for: Practitioner.defaultID))
        #expect(demo.body.contains(#""notice": "demo data: a generated history of 1 session, not yours"#))
        let alice = try #require(try await engine.report(for: "alice"))
        #expect(!alice.body.contains(#""notice""#))
        await engine.shutdown()

        // One session of the practitioner's own beside the demo's.
        try await container.performBackgroundTask { context in
            let session = context.insert(Session.self)
            try session.set(Session.practitioner, to: try Practitioners.object(Practitioner.defaultID, in: context))
            session[Session.start] = Property.asOf.addingTimeInterval(-3_600)
            session[Session.duration] = 300
            session[Session.kind] = "yoga"
            session[Session.key] = "own-1"
            try await context.save()
        }
        let again = try Self.engine(container)
        let mixed = try #require(try await again.report(for: Practitioner.defaultID))
        #expect(mixed.body.contains(#""notice": "the store holds 1 generated demo session (source \"demo\") beside 1 other""#), "\(mixed.body.prefix(600))")
        await again.shutdown()
    }

    @Test(arguments: StoreKind.all)
    func aReportOfADayThatHasEndedIsMadeAgain(_ store: StoreKind) async throws {
        let container = try await Self.open(store, holding: [
            .upsert("alice", key: "a1", day: 0, minutes: 20, kind: "yoga"),
        ])
        defer { try? container.close() }
        let clock = LockedState(Property.asOf)
        let engine = try Self.engine(container, now: { clock.withLock { $0 } })
        let today = try #require(try await engine.report(for: "alice"))
        #expect(try await engine.report(for: "alice") == today)

        clock.withLock { $0 = $0.addingTimeInterval(86_400) }
        let tomorrow = try #require(try await engine.report(for: "alice"))
        #expect(tomorrow.generation > today.generation)
        #expect(tomorrow.asOf == Property.asOf.addingTimeInterval(86_400))
        #expect(tomorrow.body != today.body)
        #expect(engine.metrics.cacheMisses == 2)
        await engine.shutdown()
    }

    @Test(arguments: StoreKind.all)
    func manyFirstRequestsAtOnceMakeTheReportOnce(_ store: StoreKind) async throws {
        let container = try await Self.open(store, holding: [.upsert("alice", key: "a1", day: 1, minutes: 20, kind: "yoga")])
        defer { try? container.close() }
        let engine = try Self.engine(container)
        let answers = try await withThrowingTaskGroup(of: LiveReport?.self) { group in
            for _ in 0..<20 { group.addTask { try await engine.report(for: "alice") } }
            return try await group.reduce(into: [LiveReport?]()) { $0.append($1) }
        }
        #expect(answers.count == 20)
        #expect(Set(answers.map { $0?.generation }).count == 1)
        #expect(engine.metrics.refreshes == 1)
        #expect(engine.metrics.cacheMisses + engine.metrics.cacheHits == 20)
        await engine.shutdown()
    }

    @Test(arguments: StoreKind.all)
    func aChangeToSomeoneNotHeldMakesNothingAgainAndARenameEndsTheOldID(_ store: StoreKind) async throws {
        let container = try await Self.open(store, holding: [
            .upsert("alice", key: "a1", day: 1, minutes: 20, kind: "yoga"),
            .upsert("dave", key: "d1", day: 1, minutes: 20, kind: "yoga"),
        ])
        defer { try? container.close() }
        let engine = try Self.engine(container)
        let alice = try #require(try await engine.updates(of: "alice"))
        let first = try #require(await Self.next(alice))
        let refreshes = engine.metrics.refreshes

        // Dave's session, then Alice's: changes are applied in order, so once Alice's update is out, Dave's change
        // has been applied too, and made no report again (none held is his).
        try await Property.apply(.upsert("dave", key: "d2", day: 2, minutes: 20, kind: "yoga"), to: container)
        try await Property.apply(.upsert("alice", key: "a2", day: 2, minutes: 20, kind: "yoga"), to: container)
        let second = try #require(await Self.next(alice))
        #expect(Self.sessionCount(second) == 2)
        #expect(second.generation > first.generation)
        #expect(engine.metrics.refreshes == refreshes + 1)

        // Alice renamed: her id is gone (her subscription ends), and the new one is a report of her sessions.
        #expect(try await Practitioners.rename("alice", to: "alicia", in: container) == .renamed)
        #expect(await Self.next(alice) == nil)
        #expect(try await engine.report(for: "alice") == nil)
        #expect(Self.sessionCount(try await engine.report(for: "alicia")) == 2)
        await engine.shutdown()
    }
}
