import Foundation
import PracticeLog
import StillpointStatistics
import StreakStatistics
import Testing

@Suite("best_streaks, end to end")
struct BestStreaksTests {
    let statistic = BestStreaks()
    /// Runs of 2 (03-01), 5 (03-04), 3 (03-10) and 2 (03-14) days.
    let sessions = middays(["2024-03-01", "2024-03-02", "2024-03-04", "2024-03-05", "2024-03-06", "2024-03-07",
                            "2024-03-08", "2024-03-10", "2024-03-11", "2024-03-12", "2024-03-14", "2024-03-15"])
    let base: [String: ParameterValue] = ["as_of": "2024-03-15T18:00:00Z", "time_zone": "UTC"]

    @Test func threeByDefaultOldestFirstTheNewerOfEqualRuns() async throws {
        let value = try await value(of: statistic, sessions: sessions, parameters: base)
        #expect(value == .list([try runRecord("2024-03-04", "2024-03-08", length: 5),
                                try runRecord("2024-03-10", "2024-03-12", length: 3),
                                try runRecord("2024-03-14", "2024-03-15", length: 2)]))
    }

    @Test(arguments: [1, 2, 4, 10])
    func countLimitsTheList(count: Int) async throws {
        let value = try await value(of: statistic, sessions: sessions,
                                    parameters: base.merging(["count": .init(.scalar(String(count)))]) { $1 })
        let all = [try runRecord("2024-03-01", "2024-03-02", length: 2), try runRecord("2024-03-04", "2024-03-08", length: 5),
                   try runRecord("2024-03-10", "2024-03-12", length: 3), try runRecord("2024-03-14", "2024-03-15", length: 2)]
        // By rank: 5, 3, the newer 2, the older 2; then listed in date order.
        let ranked = [1, 2, 3, 0].prefix(count).sorted()
        #expect(value == .list(ranked.map { all[$0] }))
    }

    @Test(arguments: ["0", "-1", "three", "2.5"])
    func aCountThatIsNotAPositiveWholeNumberIsAnError(count: String) throws {
        let parameters = StatisticParameters(statistic: "best_streaks", values: ["count": .init(.scalar(count))])
        #expect {
            _ = try statistic.prepare(parameters)
        } throws: { error in
            (error as? ParameterError)?.parameter == "count"
        }
    }

    @Test func restDaysJoinRuns() async throws {
        // Without rest days: 03-01...03-02 and 03-04...03-08 are separate. With Sunday 03-03 a rest day
        // they are one run of 8 days, and 03-09 (Saturday) is not rest, so it still breaks.
        let value = try await value(of: statistic, sessions: sessions,
                                    parameters: base.merging(["excluded_weekdays": "sunday", "count": 2]) { $1 })
        #expect(value == .list([try runRecord("2024-03-01", "2024-03-08", length: 8),
                                try runRecord("2024-03-10", "2024-03-12", length: 3)]))
    }

    @Test func sessionsInTheirOwnZones() async throws {
        let sessions = [ExampleSession("2023-06-01T23:00:00-04:00", minutes: 15, timeZone: "America/New_York"),
                        ExampleSession("2023-06-02T04:00:00+01:00", minutes: 15, timeZone: "Europe/London")]
        let value = try await value(of: statistic, sessions: sessions,
                                    parameters: ["as_of": "2023-06-02T12:00:00Z", "time_zone": "UTC"])
        #expect(value == .list([try runRecord("2023-06-01", "2023-06-02", length: 2)]))
    }

    @Test func springForwardInNewYorkIsOneDay() async throws {
        let sessions = [ExampleSession("2023-03-11T21:00:00-05:00", minutes: 15),
                        ExampleSession("2023-03-12T01:30:00-05:00", minutes: 15),
                        ExampleSession("2023-03-12T03:30:00-04:00", minutes: 15)]
        let value = try await value(of: statistic, sessions: sessions,
                                    parameters: ["as_of": "2023-03-12T22:00:00-04:00", "time_zone": "America/New_York"])
        #expect(value == .list([try runRecord("2023-03-11", "2023-03-12", length: 2)]))
    }

    @Test func emptyLogIsAnEmptyList() async throws {
        #expect(try await value(of: statistic, parameters: base) == .list([]))
    }
}
