import Foundation
import PracticeLog
import StillpointStatistics
import StreakStatistics
import Testing

@Suite("longest_streak, end to end")
struct LongestStreakTests {
    let statistic = LongestStreak()

    @Test(arguments: DaysBeforeTodayCase.table)
    func sessionsInDaysBeforeToday(_ row: DaysBeforeTodayCase) async throws {
        let value = try await value(of: statistic, sessions: row.exampleSessions, parameters: DaysBeforeTodayCase.parameters)
        #expect(value == .quantity(Double(row.longest), .days))
    }

    @Test func aNoteGivesTheRunsDates() async throws {
        let row = DaysBeforeTodayCase(sessions: "0, 1, 2, 5, 6, 7, 8, 9, 12, 13", current: 3, longest: 5)
        let result = try await result(of: statistic, sessions: row.exampleSessions, parameters: DaysBeforeTodayCase.parameters)
        #expect(result.notes == ["2024-03-06 through 2024-03-10"])
    }

    @Test func ofEqualRunsTheMostRecentWins() async throws {
        let sessions = middays(["2024-03-01", "2024-03-02", "2024-03-03", "2024-03-08", "2024-03-09", "2024-03-10"])
        let result = try await result(of: statistic, sessions: sessions,
                                      parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"])
        #expect(result.value == .quantity(3, .days))
        #expect(result.notes == ["2024-03-08 through 2024-03-10"])
    }

    @Test func fallBackInNewYorkIsOneDay() async throws {
        let sessions = ["2023-11-05T01:30:00-04:00", "2023-11-05T01:30:00-05:00", "2023-11-05T02:30:00-05:00"]
            .map { ExampleSession($0, minutes: 15) }
        let result = try await result(of: statistic, sessions: sessions,
                                      parameters: ["as_of": "2023-11-05T12:00:00-05:00", "time_zone": "America/New_York"])
        #expect(result.value == .quantity(1, .days))
        #expect(result.notes == ["2023-11-05 through 2023-11-05"])
    }

    @Test func newYorkAndLondonAreTwoDays() async throws {
        let sessions = [ExampleSession("2023-06-01T23:00:00-04:00", minutes: 15, timeZone: "America/New_York"),
                        ExampleSession("2023-06-02T04:00:00+01:00", minutes: 15, timeZone: "Europe/London")]
        // Weeks later the run is no longer current, but it is still the longest.
        let result = try await result(of: statistic, sessions: sessions,
                                      parameters: ["as_of": "2023-07-01T12:00:00Z", "time_zone": "UTC"])
        #expect(result.value == .quantity(2, .days))
        #expect(result.notes == ["2023-06-01 through 2023-06-02"])
    }

    @Test func kindsAndMinimumDurationFilterTheSessions() async throws {
        let sessions = middays(["2024-03-01", "2024-03-02", "2024-03-03", "2024-03-04"], kind: "yoga")
            + middays(["2024-03-05", "2024-03-06"], kind: "meditation")
            + middays(["2024-03-07"], minutes: 3, kind: "meditation")
            + middays(["2024-03-08"], kind: "meditation")
        let base: [String: ParameterValue] = ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"]
        #expect(try await value(of: statistic, sessions: sessions, parameters: base) == .quantity(8, .days))
        #expect(try await value(of: statistic, sessions: sessions, parameters: base.merging(["minimum_duration": "5m"]) { $1 })
                == .quantity(6, .days))
        #expect(try await value(of: statistic, sessions: sessions, parameters: base.merging(["kinds": "meditation"]) { $1 })
                == .quantity(4, .days))
        #expect(try await value(of: statistic, sessions: sessions,
                                parameters: base.merging(["kinds": ["meditation"], "minimum_duration": "5m"]) { $1 })
                == .quantity(2, .days))
    }

    @Test func restDaysCountInsideARunButNotAtItsEnds() async throws {
        // Friday 03-08, the rest weekend, then Monday to Friday: one run of 8 days. The weekend after the
        // last session (03-16 and 03-17) is not counted until a session follows it.
        let sessions = middays(["2024-03-08", "2024-03-11", "2024-03-12", "2024-03-13", "2024-03-14", "2024-03-15"])
        let result = try await result(of: statistic, sessions: sessions,
                                      parameters: ["as_of": "2024-03-17T20:00:00Z", "time_zone": "UTC",
                                                   "excluded_weekdays": ["saturday", "sunday"]])
        #expect(result.value == .quantity(8, .days))
        #expect(result.notes == ["2024-03-08 through 2024-03-15"])
    }

    @Test func aFutureSessionNeverExtendsTheRun() async throws {
        let sessions = middays(["2024-03-14", "2024-03-15", "2024-03-16", "2024-03-17"])
        let value = try await value(of: statistic, sessions: sessions,
                                    parameters: ["as_of": "2024-03-15T18:00:00Z", "time_zone": "UTC"])
        #expect(value == .quantity(2, .days))
    }

    @Test func emptyLog() async throws {
        let result = try await result(of: statistic, parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"])
        #expect(result.value == .quantity(0, .days))
        #expect(result.notes.isEmpty)
    }
}
