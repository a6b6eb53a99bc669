import Foundation
import PracticeLog
import StillpointCatalog
import StillpointCore
import StillpointPostgres
import StillpointReport
import StillpointSQLite
import StillpointStatistics
import StillpointTestSupport
import Testing
import StillpointManifest

/// Reports per practitioner, kept current (PractitionerReports), on SQLite and PostgreSQL: each practitioner's
/// report reads their sessions only, a change reruns only the statistics of the practitioners it touches, a moved
/// session updates both, and a removed practitioner is dropped.
@Suite("reports per practitioner, kept current", .serialized)
struct PractitionerReportsTests {
    /// A statistic that reads the store, not the digest.
    struct StoreCountStatistic: Statistic {
        let id = "store_count"
        let description = StatisticDescription(name: "Store count", summary: "Counts every session in the store.", parameters: [])

        func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
            PreparedStatistic { context in StatisticResult(.quantity(Double(try context.count(for: FetchRequest(Session.self))), .count)) }
        }
    }

    enum StoreCountModule: StatisticModule {
        static let statistics: [any Statistic] = [StoreCountStatistic()]
    }

    private let refresh = ReportRunnerRefreshTests()
    private let asOf = ReportRunnerRefreshTests.asOf

    private func insert(_ kind: String, for practitioner: String, key: String, into container: PersistentContainer) async throws {
        try await container.performBackgroundTask { context in
            let session = context.insert(Session.self)
            try session.set(Session.practitioner, to: try Practitioners.object(practitioner, in: context))
            session[Session.start] = asOf.addingTimeInterval(-86_400)
            session[Session.duration] = 600
            session[Session.kind] = kind
            session[Session.key] = key
            try await context.save()
        }
    }

    private func move(_ key: String, of from: String, to practitioner: String, in container: PersistentContainer) async throws {
        try await container.performBackgroundTask { context in
            let predicate = try FetchPredicate("key == %@ AND practitioner.id == %@", key, from)
            guard let session = try context.fetch(FetchRequest(Session.self, predicate: predicate)).first else { return }
            try session.set(Session.practitioner, to: try Practitioners.object(practitioner, in: context))
            try await context.save()
        }
    }

    private func yogaComputations() -> Int {
        refresh.computations()["yogaPractitioners", default: 0]
    }

    @Test(arguments: PracticeStore.all)
    func eachReportIsOnePractitionersAndIsKeptCurrent(_ store: PracticeStore) async throws {
        let container = try store.open(schema: Session.schema)
        defer { try? container.close() }
        try await insert("yogaPractitioners", for: "alice", key: "a1", into: container)
        try await insert("yogaPractitioners", for: "alice", key: "a2", into: container)
        try await insert("yogaPractitioners", for: "bob", key: "b1", into: container)
        let (entries, environment) = try refresh.entries(asOf: asOf, suffix: "Practitioners")
        let reports = PractitionerReports(container: container)

        #expect(try await reports.report(for: "alice", entries, environment: environment).map(refresh.counts) == ["yoga": 2, "meditation": 0])
        #expect(try await reports.report(for: "bob", entries, environment: environment).map(refresh.counts) == ["yoga": 1, "meditation": 0])
        #expect(reports.held == ["alice", "bob"])

        // A session of Bob's: Alice's report runs none of its statistics again.
        try await insert("yogaPractitioners", for: "bob", key: "b2", into: container)
        var before = yogaComputations()
        #expect(try await reports.report(for: "alice", entries, environment: environment).map(refresh.counts) == ["yoga": 2, "meditation": 0])
        #expect(yogaComputations() == before)
        #expect(try await reports.report(for: "bob", entries, environment: environment).map(refresh.counts) == ["yoga": 2, "meditation": 0])
        #expect(yogaComputations() == before + 1)

        // A session moved from Alice to Bob leaves the one and joins the other.
        try await move("a1", of: "alice", to: "bob", in: container)
        before = yogaComputations()
        #expect(try await reports.report(for: "alice", entries, environment: environment).map(refresh.counts) == ["yoga": 1, "meditation": 0])
        #expect(try await reports.report(for: "bob", entries, environment: environment).map(refresh.counts) == ["yoga": 3, "meditation": 0])
        #expect(yogaComputations() == before + 2)

        // Bob removed: dropped, whether asked for or found gone.
        _ = try await Practitioners.remove("bob", from: container)
        #expect(try await reports.dropRemoved() == ["bob"])
        #expect(reports.held == ["alice"])
        #expect(try await reports.report(for: "bob", entries, environment: environment) == nil)
        #expect(try await reports.report(for: "carol", entries, environment: environment) == nil)
        #expect(try await reports.report(for: "alice", entries, environment: environment).map(refresh.counts) == ["yoga": 1, "meditation": 0])
    }

    @Test(arguments: PracticeStore.all)
    func aPractitionerAddedAgainUnderTheSameIDIsANewPractitioner(_ store: PracticeStore) async throws {
        let container = try store.open(schema: Session.schema)
        defer { try? container.close() }
        try await insert("yogaPractitioners", for: "alice", key: "a1", into: container)
        let (entries, environment) = try refresh.entries(asOf: asOf, suffix: "Practitioners")
        let reports = PractitionerReports(container: container)
        #expect(try await reports.report(for: "alice", entries, environment: environment).map(refresh.counts) == ["yoga": 1, "meditation": 0])
        _ = try await Practitioners.remove("alice", from: container)
        try await Practitioners.add("alice", in: container)
        #expect(try await reports.report(for: "alice", entries, environment: environment).map(refresh.counts) == ["yoga": 0, "meditation": 0])
    }

    @Test(arguments: PracticeStore.all)
    func aStatisticThatReadsTheStoreCountsThatPractitionersSessionsOnly(_ store: PracticeStore) async throws {
        let container = try store.open(schema: Session.schema)
        defer { try? container.close() }
        try await insert("yoga", for: "alice", key: "a1", into: container)
        try await insert("yoga", for: "bob", key: "b1", into: container)
        try await insert("meditation", for: "bob", key: "b2", into: container)
        let manifest = try Manifest(yaml: "version: 1\nstatistics:\n  - id: store_count\n")
        let entries = try manifest.prepare(catalog: try StatisticCatalog(modules: [StoreCountModule.self]))
        let reports = PractitionerReports(container: container)
        let alice = try #require(try await reports.report(for: "alice", entries, environment: manifest.environment))
        #expect(alice.entries.first?.outcome == .finished(StatisticResult(.quantity(1, .count))))
        let bob = try #require(try await reports.report(for: "bob", entries, environment: manifest.environment))
        #expect(bob.entries.first?.outcome == .finished(StatisticResult(.quantity(2, .count))))
    }

    /// A cold report on PostgreSQL (no digest held) is a few statements, however many sessions the practitioner has:
    /// their row id (`BEGIN`, the look-up, `COMMIT`), then one read transaction with their sessions in one statement
    /// and the change log's position (`BEGIN`, two statements, `COMMIT`). It was eleven: their session ids first,
    /// then a cursor's `DECLARE`, a `FETCH` per 2,000 sessions and `CLOSE`. Three round trips are waited for: each
    /// `BEGIN` goes with the statement after it, and no `COMMIT` is waited for. With one row per `FETCH` the counts
    /// stay the same: no cursor is read.
    @Test(.enabled(if: PracticeStore.all.contains(.postgres)))
    func aColdReportOnPostgreSQLIsSevenStatementsInThreeRoundTrips() async throws {
        typealias Property = PractitionerReportsPropertyTests
        let place = try PracticeStore.postgres.makePlace()
        let writer = try PracticeStore.postgres.open(place, schema: Session.schema)
        defer { try? writer.close() }
        for day in 0..<6 {
            try await Property.apply(.upsert("alice", key: "a\(day)", day: day, minutes: 10 + day, kind: day.isMultiple(of: 2) ? "yoga" : "meditation"), to: writer)
        }
        try await Property.apply(.upsert("bob", key: "b0", day: 1, minutes: 30, kind: "yoga"), to: writer)
        var manifest = try Manifest(yaml: Property.manifest)
        manifest.environment.asOf = Property.asOf
        let entries = try manifest.prepare(catalog: try BuiltInStatistics.catalog())
        let expected = try #require(try await PractitionerReports(container: writer).report(for: "alice", entries, environment: manifest.environment))

        for rowsPerFetch in [PostgresCursor.chunk, 1] {
            let store = try PostgresStore(uri: place, schema: Session.schema, access: .readOnly, rowsPerFetch: rowsPerFetch)
            let container = PersistentContainer(store: store)
            defer { try? container.close() }
            let (before, roundTripsBefore) = (store.statements.count, store.statements.roundTrips)
            let report = try #require(try await PractitionerReports(container: container).report(for: "alice", entries, environment: manifest.environment))
            #expect(store.statements.count - before == 7, "\(rowsPerFetch) row(s) per FETCH")
            #expect(store.statements.roundTrips - roundTripsBefore == 3, "\(rowsPerFetch) row(s) per FETCH")
            #expect(Property.outcomes(report) == Property.outcomes(expected))
        }
    }

    /// The digest's statements are prepared on a reader's connection by the first cold report and run by name for
    /// every practitioner after (the server parses and plans them once per connection), in the same statements and
    /// round trips; a connection the server ended is replaced, and the new one prepares them again.
    @Test(.enabled(if: PracticeStore.all.contains(.postgres)))
    func coldReportsPrepareTheDigestsStatementsOncePerConnection() async throws {
        typealias Property = PractitionerReportsPropertyTests
        let place = try PracticeStore.postgres.makePlace()
        let writer = try PracticeStore.postgres.open(place, schema: Session.schema)
        defer { try? writer.close() }
        for (index, id) in ["alice", "bob", "carol"].enumerated() {
            try await Property.apply(.upsert(id, key: "\(id)0", day: index, minutes: 10 + index, kind: "yoga"), to: writer)
        }
        var manifest = try Manifest(yaml: Property.manifest)
        manifest.environment.asOf = Property.asOf
        let entries = try manifest.prepare(catalog: try BuiltInStatistics.catalog())
        var expected: [String: [String: ReportOutcome]] = [:]
        for id in ["alice", "bob", "carol"] {
            expected[id] = Property.outcomes(try #require(try await PractitionerReports(container: writer).report(for: id, entries, environment: manifest.environment)))
        }

        let store = try PostgresStore(uri: place, schema: Session.schema, access: .readOnly)
        let container = PersistentContainer(store: store)
        defer { try? container.close() }
        func coldReport(_ id: String) async throws -> (statements: Int, roundTrips: Int, preparations: Int) {
            let before = (store.statements.count, store.statements.roundTrips, store.statements.preparations)
            let report = try #require(try await PractitionerReports(container: container).report(for: id, entries, environment: manifest.environment))
            #expect(Property.outcomes(report) == expected[id], "\(id)")
            return (store.statements.count - before.0, store.statements.roundTrips - before.1, store.statements.preparations - before.2)
        }
        let alice = try await coldReport("alice")
        let bob = try await coldReport("bob")
        #expect(alice == (7, 3, 2))
        #expect(bob == (7, 3, 0))

        // The server ends every other connection to the database: the store's reader among them.
        let admin = try PostgresConnection(uri: place)
        let ended = try admin.execute("""
            SELECT array_agg(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()
            """).text(row: 0, column: 0)
        try admin.execute("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid", [ended])
        // Ending is asynchronous: wait until those backends are gone, so that the reader's socket is closed.
        for _ in 0..<500 where try admin.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY($1::int[])", [ended]).integer(row: 0, column: 0) != 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        let carol = try await coldReport("carol")
        #expect(carol == (7, 3, 2))
    }
}
