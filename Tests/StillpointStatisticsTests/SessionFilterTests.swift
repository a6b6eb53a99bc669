import Foundation
import PracticeLog
import StillpointCatalog
import StillpointCore
import Testing
@testable import StillpointStatistics

@Suite("SessionFilter")
struct SessionFilterTests {
    /// Two sessions any log has, and rows no session can have: an old import stored an infinite duration.
    static let sessions: [ExampleSession] = {
        func session(_ start: Date, _ duration: TimeInterval, _ key: Int) -> ExampleSession {
            var session = ExampleSession("2024-03-10T07:00:00Z", minutes: 0, kind: "yoga", source: "bad-\(key)")
            session.start = start
            session.duration = duration
            return session
        }
        let march = Date(timeIntervalSince1970: 1_710_054_000)   // 2024-03-10T07:00:00Z
        return [
            ExampleSession("2024-03-14T07:00:00Z", minutes: 20), ExampleSession("2024-03-15T07:00:00Z", minutes: 10),
            session(march, .infinity, 1), session(march, -.infinity, 2), session(march, 1e300, 3),
            session(march, -600, 4), session(march, 0, 5), session(march, Double.greatestFiniteMagnitude, 6),
            session(Date(timeIntervalSince1970: -62_135_596_800), 600, 7),   // year 1
            session(Date(timeIntervalSince1970: -1e300), 600, 8),
            session(Date(timeIntervalSince1970: -.infinity), 600, 9),
            session(Date(timeIntervalSince1970: 253_402_214_400), 600, 10),  // year 9999, after as_of
        ]
    }()

    @Test func countsOnlySessionsThatCanBe() async throws {
        let container = try await StatisticExample.store(holding: Self.sessions)
        let filter = SessionFilter(asOf: Date(timeIntervalSince1970: 1_710_504_000))
        var request = filter.request()
        request.properties = [.count(as: "count"), .aggregate(.sum, of: "duration", as: "total")]
        let query = request
        let row = try await container.newBackgroundContext().perform { context in try context.fetchDictionaries(query) }
        #expect(row.first?["count"] == .integer(2))
        #expect(row.first?["total"] == .double(1_800))
    }

    /// Every built-in statistic over such a store: finite numbers only, and the two real sessions counted.
    @Test func everyStatisticIsTotalOverRowsNoSessionCanHave() async throws {
        let catalog = try BuiltInStatistics.catalog()
        for id in catalog.ids {
            let statistic = try catalog.statistic(id: id)
            let example = StatisticExample("bad rows", sessions: Self.sessions, parameters: ["as_of": "2024-03-15T12:00:00Z"], expected: .none)
            let result = try await example.run(statistic, environment: ReportEnvironment())
            #expect(Self.isFinite(result.value), "\(id): \(result.value)")
        }
        let count = try await StatisticExample("", sessions: Self.sessions, parameters: ["as_of": "2024-03-15T12:00:00Z"], expected: .none)
            .run(try catalog.statistic(id: "session_count"), environment: ReportEnvironment())
        #expect(count.value == .quantity(2, .count))
    }

    static func isFinite(_ value: StatisticValue) -> Bool {
        switch value {
        case .quantity(let amount, _): amount.isFinite && abs(amount) < 1e15
        case .record(let fields): fields.allSatisfy { isFinite($0.value) }
        case .list(let items): items.allSatisfy(isFinite)
        case .none, .text, .day: true
        }
    }
}
