import Foundation
import PracticeLog
import StillpointStatistics
import StreakStatistics
import Testing

@Suite("current_streak, end to end")
struct CurrentStreakTests {
    let statistic = CurrentStreak()

    /// Medito's streak table: UTC days, shifted by `day_starts_at` hours; sessions after `as_of` dropped.
    @Test(arguments: [
        ("no sessions", "2024-03-15T12:00:00Z", [String](), 0, 0),
        ("today only", "2024-03-15T12:00:00Z", ["2024-03-15T00:00:00Z"], 0, 1),
        ("yesterday only", "2024-03-15T12:00:00Z", ["2024-03-14T12:00:00Z"], 0, 1),
        ("five ending today", "2024-03-15T12:00:00Z",
         ["2024-03-15", "2024-03-14", "2024-03-13", "2024-03-12", "2024-03-11"].map { "\($0)T00:00:00Z" }, 0, 5),
        ("five ending yesterday", "2024-03-15T12:00:00Z",
         ["2024-03-14", "2024-03-13", "2024-03-12", "2024-03-11", "2024-03-10"].map { "\($0)T12:00:00Z" }, 0, 5),
        ("gap", "2024-03-15T12:00:00Z", ["2024-03-15T00:00:00Z", "2024-03-13T00:00:00Z"], 0, 1),
        ("future ignored", "2024-03-15T12:00:00Z", ["2024-03-15T00:00:00Z", "2024-03-16T00:00:00Z"], 0, 1),
        ("thirty days (leap year)", "2024-03-15T12:00:00Z",
         (0..<30).map { "\(LocalDay("2024-03-15")!.adding(days: -$0))T00:00:00Z" }, 0, 30),
        ("offset moves today back", "2024-03-15T01:00:00Z", ["2024-03-14T01:00:00Z"], 4, 1),
        ("offset, session after today", "2024-03-15T02:00:00Z", ["2024-03-15T05:00:00Z"], 4, 0),
    ])
    func meditoTable(name: String, asOf: String, starts: [String], offsetHours: Int, expected: Int) async throws {
        let value = try await value(
            of: statistic, sessions: starts.map { ExampleSession($0, minutes: 10) },
            parameters: ["as_of": .init(.scalar(asOf)), "time_zone": "UTC", "day_starts_at": .init(.scalar("\(offsetHours)h"))])
        #expect(value == .quantity(Double(expected), .days), "\(name)")
    }

    @Test func thirtyDaysCrossTheLeapDay() async throws {
        let sessions = (0..<30).map { ExampleSession("\(LocalDay("2024-03-15")!.adding(days: -$0))T00:00:00Z", minutes: 10) }
        #expect(sessions.first?.start == (try Date("2024-03-15T00:00:00Z", strategy: .iso8601)))
        #expect(sessions.last?.start == (try Date("2024-02-15T00:00:00Z", strategy: .iso8601)))
        let result = try await result(of: statistic, sessions: sessions,
                                      parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"])
        #expect(result.value == .quantity(30, .days))
        #expect(result.notes == ["2024-02-15 through 2024-03-15"])
    }

    @Test(arguments: DaysBeforeTodayCase.table)
    func sessionsInDaysBeforeToday(_ row: DaysBeforeTodayCase) async throws {
        let value = try await value(of: statistic, sessions: row.exampleSessions, parameters: DaysBeforeTodayCase.parameters)
        #expect(value == .quantity(Double(row.current), .days))
    }

    // MARK: Time zones and daylight saving

    @Test func springForwardInNewYorkIsOneDay() async throws {
        let sessions = [ExampleSession("2023-03-12T01:30:00-05:00", minutes: 15),
                        ExampleSession("2023-03-12T03:30:00-04:00", minutes: 15)]
        let result = try await result(of: statistic, sessions: sessions,
                                      parameters: ["as_of": "2023-03-12T22:00:00-04:00", "time_zone": "America/New_York"])
        #expect(result.value == .quantity(1, .days))
        #expect(result.notes == ["2023-03-12 through 2023-03-12"])
    }

    @Test func fallBackInNewYorkIsOneDay() async throws {
        let sessions = ["2023-11-05T01:30:00-04:00", "2023-11-05T01:30:00-05:00", "2023-11-05T02:30:00-05:00"]
            .map { ExampleSession($0, minutes: 15) }
        let value = try await value(of: statistic, sessions: sessions,
                                    parameters: ["as_of": "2023-11-05T12:00:00-05:00", "time_zone": "America/New_York"])
        #expect(value == .quantity(1, .days))
    }

    @Test func newYorkAndLondonAreTwoDaysInTheirOwnZones() async throws {
        // One instant, 2023-06-02 03:00 UTC, lived in two places: each session keeps its own date.
        let zoned = [ExampleSession("2023-06-01T23:00:00-04:00", minutes: 15, timeZone: "America/New_York"),
                     ExampleSession("2023-06-02T04:00:00+01:00", minutes: 15, timeZone: "Europe/London")]
        let parameters: [String: ParameterValue] = ["as_of": "2023-06-02T12:00:00Z", "time_zone": "UTC"]
        #expect(try await value(of: statistic, sessions: zoned, parameters: parameters) == .quantity(2, .days))

        // Without zones of their own they fall on the report's day, 06-02 in UTC, for both.
        let unzoned = [ExampleSession("2023-06-01T23:00:00-04:00", minutes: 15),
                       ExampleSession("2023-06-02T04:00:00+01:00", minutes: 15)]
        #expect(try await value(of: statistic, sessions: unzoned, parameters: parameters) == .quantity(1, .days))
    }

    @Test func fallBackInBerlinKeepsTheStreak() async throws {
        let sessions = ["2025-10-25T20:00:00+02:00", "2025-10-26T20:00:00+01:00",
                        "2025-10-27T20:00:00+01:00", "2025-10-28T20:00:00+01:00"].map { ExampleSession($0, minutes: 15) }
        let tonight = try await result(of: statistic, sessions: sessions,
                                       parameters: ["as_of": "2025-10-28T23:00:00+01:00", "time_zone": "Europe/Berlin"])
        #expect(tonight.value == .quantity(4, .days))
        #expect(tonight.notes == ["2025-10-25 through 2025-10-28"])

        // The next morning the run is yesterday's, still alive, and says so.
        let nextMorning = try await result(of: statistic, sessions: sessions,
                                           parameters: ["as_of": "2025-10-29T08:00:00+01:00", "time_zone": "Europe/Berlin"])
        #expect(nextMorning.value == .quantity(4, .days))
        #expect(nextMorning.notes == ["2025-10-25 through 2025-10-28; today has no session yet"])
    }

    @Test func todayIsTheDayOfAsOfInTheStatisticsZone() async throws {
        // 2024-03-15 02:00 UTC is still the 14th in New York: a session on the 13th (UTC noon) is yesterday's.
        let sessions = middays(["2024-03-13"])
        let inNewYork = try await value(of: statistic, sessions: sessions,
                                        parameters: ["as_of": "2024-03-15T02:00:00Z", "time_zone": "America/New_York"])
        #expect(inNewYork == .quantity(1, .days))
        let inUTC = try await value(of: statistic, sessions: sessions,
                                    parameters: ["as_of": "2024-03-15T02:00:00Z", "time_zone": "UTC"])
        #expect(inUTC == .quantity(0, .days))
    }

    @Test func theReportsZoneAndDayStartApplyUnlessTheStatisticSaysOtherwise() async throws {
        let sessions = middays(["2024-03-13"])
        let newYork = ReportEnvironment(timeZone: TimeZone(identifier: "America/New_York")!)
        let fromReport = try await value(of: statistic, sessions: sessions,
                                         parameters: ["as_of": "2024-03-15T02:00:00Z"], environment: newYork)
        #expect(fromReport == .quantity(1, .days))
        let overridden = try await value(of: statistic, sessions: sessions,
                                         parameters: ["as_of": "2024-03-15T02:00:00Z", "time_zone": "UTC"], environment: newYork)
        #expect(overridden == .quantity(0, .days))

        // Days starting at 04:00 in the report make 03:00 UTC on the 15th part of the 14th.
        let lateStart = ReportEnvironment(timeZone: TimeZone(identifier: "UTC")!, dayStartsAt: 4 * 3600)
        let shifted = try await value(of: statistic, sessions: middays(["2024-03-13"]),
                                      parameters: ["as_of": "2024-03-15T03:00:00Z"], environment: lateStart)
        #expect(shifted == .quantity(1, .days))
        let ownStart = try await value(of: statistic, sessions: middays(["2024-03-13"]),
                                       parameters: ["as_of": "2024-03-15T03:00:00Z", "day_starts_at": "0"],
                                       environment: lateStart)
        #expect(ownStart == .quantity(0, .days))
    }

    // MARK: Filters

    @Test func kindsSelectTheSessionsThatCount() async throws {
        let sessions = middays(["2024-03-10", "2024-03-11", "2024-03-12"], kind: "meditation")
            + middays(["2024-03-13", "2024-03-14", "2024-03-15"], kind: "yoga")
        let base: [String: ParameterValue] = ["as_of": "2024-03-15T20:00:00Z", "time_zone": "UTC"]
        #expect(try await value(of: statistic, sessions: sessions, parameters: base) == .quantity(6, .days))
        #expect(try await value(of: statistic, sessions: sessions, parameters: base.merging(["kinds": ["yoga"]]) { $1 })
                == .quantity(3, .days))
        #expect(try await value(of: statistic, sessions: sessions, parameters: base.merging(["kinds": ["meditation"]]) { $1 })
                == .quantity(0, .days))
        #expect(try await value(of: statistic, sessions: sessions,
                                parameters: base.merging(["kinds": ["meditation", "yoga"]]) { $1 }) == .quantity(6, .days))
    }

    @Test func sessionsAfterAsOfAreIgnored() async throws {
        // Tonight's session is after the report and tomorrow's is in the future: only yesterday counts.
        let sessions = [ExampleSession("2024-03-14T08:00:00Z", minutes: 20),
                        ExampleSession("2024-03-15T18:00:00Z", minutes: 20),
                        ExampleSession("2024-03-16T08:00:00Z", minutes: 20)]
        let result = try await result(of: statistic, sessions: sessions,
                                      parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"])
        #expect(result.value == .quantity(1, .days))
        #expect(result.notes == ["2024-03-14 through 2024-03-14; today has no session yet"])
    }

    @Test func aZeroLengthSessionNeverCounts() async throws {
        let sessions = [ExampleSession("2024-03-14T08:00:00Z", minutes: 0), ExampleSession("2024-03-15T08:00:00Z", minutes: 20)]
        let value = try await value(of: statistic, sessions: sessions,
                                    parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"])
        #expect(value == .quantity(1, .days))
    }

    // MARK: Rest days

    /// 2024-03-07 is a Thursday; the weekend of the 9th and 10th is rest.
    @Test(arguments: [
        ("Sunday: the run is Thursday and Friday, still alive", "2024-03-10T20:00:00Z", 2),
        ("Monday morning, before Monday's session", "2024-03-11T06:00:00Z", 2),
        ("Monday evening: the weekend joins the run", "2024-03-11T20:00:00Z", 5),
        ("Tuesday evening, no session yet: the run ends yesterday", "2024-03-12T20:00:00Z", 5),
    ])
    func restDaysBridgeTheWeekend(name: String, asOf: String, expected: Int) async throws {
        let sessions = middays(["2024-03-07", "2024-03-08", "2024-03-11"])
        let value = try await value(of: statistic, sessions: sessions,
                                    parameters: ["as_of": .init(.scalar(asOf)), "time_zone": "UTC",
                                                 "excluded_weekdays": ["saturday", "sunday"]])
        #expect(value == .quantity(Double(expected), .days), "\(name)")
    }

    @Test func aMissedWorkdayAfterTheRestDaysBreaksTheRun() async throws {
        let sessions = middays(["2024-03-07", "2024-03-08"])
        let rest: [String: ParameterValue] = ["as_of": "2024-03-12T20:00:00Z", "time_zone": "UTC",
                                              "excluded_weekdays": ["saturday", "sunday"]]
        #expect(try await value(of: statistic, sessions: sessions, parameters: rest) == .quantity(0, .days))
        // Without rest days the weekend alone already broke it on Sunday.
        let noRest: [String: ParameterValue] = ["as_of": "2024-03-10T20:00:00Z", "time_zone": "UTC"]
        #expect(try await value(of: statistic, sessions: sessions, parameters: noRest) == .quantity(0, .days))
    }

    @Test func aSessionOnARestDayStartsARun() async throws {
        // Saturday's session is an ordinary active day; rest Sunday keeps it alive on Monday.
        let value = try await value(of: statistic, sessions: middays(["2024-03-09"]),
                                    parameters: ["as_of": "2024-03-11T20:00:00Z", "time_zone": "UTC",
                                                 "excluded_weekdays": ["Sunday"]])
        #expect(value == .quantity(1, .days))
    }

    @Test func anUnknownWeekdayIsAnErrorThatNamesIt() throws {
        let parameters = StatisticParameters(statistic: "current_streak", values: ["excluded_weekdays": ["saturday", "sundy"]])
        #expect {
            _ = try statistic.prepare(parameters)
        } throws: { error in
            let error = try #require(error as? ParameterError)
            return error.parameter == "excluded_weekdays" && error.message.contains("'sundy'")
                && error.message.contains("sunday")
        }
    }

    @Test func emptyLog() async throws {
        let result = try await result(of: statistic, parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"])
        #expect(result.value == .quantity(0, .days))
        #expect(result.notes.isEmpty)
    }
}
