import Foundation
import PracticeLog
import StillpointCore
import StillpointManifest
import StillpointReport
import StillpointSQLite
import StillpointStatistics
import Testing

/// A runner run again on the same store (a watched report) catches its digest up and runs only the statistics
/// whose sessions changed.
@Suite("report runner refresh")
struct ReportRunnerRefreshTests {
    /// Counts the sessions of its filter, and how often it computed, by the name of its entry.
    struct CountingStatistic: Statistic {
        static let computations = LockedState<[String: Int]>([:])
        let id = "counting"
        let description = StatisticDescription(name: "Counting", summary: "Counts sessions, and its own runs.",
                                               parameters: [.kinds])

        func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
            let filter = try SessionFilter(parameters)
            let name = try parameters.strings("kinds")?.joined() ?? "all"
            return PreparedStatistic(reading: filter) { digest in
                Self.computations.withLock { $0[name, default: 0] += 1 }
                return StatisticResult(.quantity(Double(digest.sessions(filter, boundary: parameters.environment.dayBoundary).count), .count))
            }
        }
    }

    enum CountingModule: StatisticModule {
        static let statistics: [any Statistic] = [CountingStatistic()]
    }

    static let asOf = Date(timeIntervalSince1970: 1_718_000_000)  // 2024-06-10T06:13:20Z

    /// Two counts, of kinds `yoga` + `suffix` and `meditation` + `suffix`: each test its own, since tests run
    /// at once and the counter is shared.
    func entries(asOf: Date, suffix: String = "Refresh") throws -> (entries: [PreparedEntry], environment: ReportEnvironment) {
        var manifest = try Manifest(yaml: """
            version: 1
            time_zone: UTC
            statistics:
              - {id: counting, as: yoga, parameters: {kinds: [yoga\(suffix)]}}
              - {id: counting, as: meditation, parameters: {kinds: [meditation\(suffix)]}}
            """)
        manifest.environment.asOf = asOf
        return (try manifest.prepare(catalog: try StatisticCatalog(modules: [CountingModule.self])), manifest.environment)
    }

    func insert(_ kind: String, into container: PersistentContainer, key: String) async throws {
        try await container.performBackgroundTask { context in
            let session = context.insert(Session.self)
            try session.set(Session.practitioner, to: try Practitioners.object(Practitioner.defaultID, in: context))
            session[Session.start] = Self.asOf.addingTimeInterval(-86_400)
            session[Session.duration] = 600
            session[Session.kind] = kind
            session[Session.key] = key
            try await context.save()
        }
    }

    func counts(_ report: Report) -> [String: Double] {
        var counts: [String: Double] = [:]
        for entry in report.entries {
            if case .finished(let result) = entry.outcome, case .quantity(let value, _) = result.value { counts[entry.name] = value }
        }
        return counts
    }

    func computations() -> [String: Int] {
        CountingStatistic.computations.withLock { $0 }
    }

    @Test func onlyTheStatisticsWhoseSessionsChangedRunAgain() async throws {
        let container = try PersistentContainer(schema: Session.schema, location: .inMemory)
        try await insert("yogaRefresh", into: container, key: "a")
        try await insert("meditationRefresh", into: container, key: "b")
        let notes = LockedState<[String]>([])
        let runner = ReportRunner(container: container, log: { note in notes.withLock { $0.append(note) } })
        let before = computations()

        var (entries, environment) = try entries(asOf: Self.asOf)
        var report = await runner.run(entries, environment: environment)
        #expect(counts(report) == ["yoga": 1, "meditation": 1])

        // A yoga session: the yoga count runs again, the meditation count keeps its result.
        try await insert("yogaRefresh", into: container, key: "c")
        (entries, environment) = try self.entries(asOf: Self.asOf.addingTimeInterval(60))
        report = await runner.run(entries, environment: environment)
        #expect(counts(report) == ["yoga": 2, "meditation": 1])
        #expect(computations()["yogaRefresh", default: 0] - before["yogaRefresh", default: 0] == 2)
        #expect(computations()["meditationRefresh", default: 0] - before["meditationRefresh", default: 0] == 1)
        #expect(notes.withLock { $0 }.contains { $0.contains("caught up with 1 change set(s), 1 session(s)") })

        // The next day moves "today": everything runs again.
        (entries, environment) = try self.entries(asOf: Self.asOf.addingTimeInterval(86_400))
        report = await runner.run(entries, environment: environment)
        #expect(counts(report) == ["yoga": 2, "meditation": 1])
        #expect(computations()["meditationRefresh", default: 0] - before["meditationRefresh", default: 0] == 2)
    }

    @Test func aPurgedChangeLogMakesTheRunnerReadEverySessionAgain() async throws {
        let container = try PersistentContainer(schema: Session.schema, location: .inMemory)
        try await insert("yogaPurge", into: container, key: "a")
        let notes = LockedState<[String]>([])
        let runner = ReportRunner(container: container, log: { note in notes.withLock { $0.append(note) } })
        let (entries, environment) = try entries(asOf: Self.asOf, suffix: "Purge")
        _ = await runner.run(entries, environment: environment)

        try await insert("yogaPurge", into: container, key: "b")
        try container.purgeHistory(through: try container.currentHistoryToken())
        let report = await runner.run(entries, environment: environment)
        #expect(counts(report) == ["yoga": 2, "meditation": 0])
        #expect(notes.withLock { $0 }.contains { $0.contains("purged") && $0.contains("reading every session again") })
    }
}
