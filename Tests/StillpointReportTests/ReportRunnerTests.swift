import Foundation
import PracticeLog
import StillpointCore
import StillpointReport
import Testing

/// How a runner schedules the statistics that read its digest: a practitioner's in the digest's own operation, one
/// after the other (their entries start and finish together); a whole store's in an operation each.
@Suite("report runner")
struct ReportRunnerTests {
    typealias Refresh = ReportRunnerRefreshTests

    /// The runner's events, in order: `r0` entry 0 running, `f0` entry 0 finished, `?0` anything else.
    private func steps(practitioner: Int64?, _ container: PersistentContainer, suffix: String) async throws -> (steps: [String], report: Report) {
        let (entries, environment) = try Refresh().entries(asOf: Refresh.asOf, suffix: suffix)
        let runner = ReportRunner(container: container, maxConcurrentStatistics: 1, practitioner: practitioner)
        let steps = LockedState<[String]>([])
        let report = await runner.run(entries, environment: environment) { event in
            guard case .updated(let index, let outcome) = event else { return }
            switch outcome {
            case .running: steps.withLock { $0.append("r\(index)") }
            case .finished: steps.withLock { $0.append("f\(index)") }
            default: steps.withLock { $0.append("?\(index)") }
            }
        }
        return (steps.withLock { $0 }, report)
    }

    @Test func aPractitionersDigestStatisticsRunInTheDigestsOwnOperation() async throws {
        let container = try PersistentContainer(schema: Session.schema, location: .inMemory)
        try await Refresh().insert("yogaRunner", into: container, key: "a")
        try await Refresh().insert("meditationRunner", into: container, key: "b")
        let me = try await Practitioners.rowID(of: Practitioner.defaultID, in: container)
        let practitioners = try await steps(practitioner: me, container, suffix: "Runner")
        #expect(practitioners.steps == ["r0", "r1", "f0", "f1"])
        #expect(Refresh().counts(practitioners.report) == ["yoga": 1, "meditation": 1])
        // A whole store's: an operation each, one at a time here.
        let store = try await steps(practitioner: nil, container, suffix: "Runner")
        #expect(store.steps == ["r0", "f0", "r1", "f1"])
        #expect(Refresh().counts(store.report) == ["yoga": 1, "meditation": 1])
    }

    /// In the digest's operation too, a refresh reruns only the statistics whose sessions changed.
    @Test func aPractitionersRefreshRerunsOnlyTheStatisticsWhoseSessionsChanged() async throws {
        let container = try PersistentContainer(schema: Session.schema, location: .inMemory)
        try await Refresh().insert("yogaKept", into: container, key: "a")
        try await Refresh().insert("meditationKept", into: container, key: "b")
        let me = try await Practitioners.rowID(of: Practitioner.defaultID, in: container)
        let (entries, environment) = try Refresh().entries(asOf: Refresh.asOf, suffix: "Kept")
        let runner = ReportRunner(container: container, practitioner: me)
        _ = await runner.run(entries, environment: environment)
        let before = Refresh().computations()
        try await Refresh().insert("yogaKept", into: container, key: "c")
        let again = await runner.run(entries, environment: environment)
        #expect(Refresh().counts(again) == ["yoga": 2, "meditation": 1])
        let after = Refresh().computations()
        #expect(after["yogaKept"] == (before["yogaKept"] ?? 0) + 1)
        #expect(after["meditationKept"] == before["meditationKept"])
    }
}
