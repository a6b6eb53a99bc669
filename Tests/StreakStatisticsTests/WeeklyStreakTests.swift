import Foundation
import PracticeLog
import StillpointStatistics
import StreakStatistics
import Testing

/// 2024-03-13 is a Wednesday; its week (from Monday) starts on 03-11.
@Suite("weekly_streak, end to end")
struct WeeklyStreakTests {
    let statistic = WeeklyStreak()
    let base: [String: ParameterValue] = ["as_of": "2024-03-13T18:00:00Z", "time_zone": "UTC"]

    @Test func theWeekInProgressDoesNotBreakTheStreak() async throws {
        let earlier = middays(["2024-02-20", "2024-02-29", "2024-03-04"])
        #expect(try await value(of: statistic, sessions: earlier, parameters: base) == .quantity(3, .weeks))
        // A session this week adds it.
        #expect(try await value(of: statistic, sessions: earlier + middays(["2024-03-12"]), parameters: base)
                == .quantity(4, .weeks))
        // Several sessions in one week make one week.
        #expect(try await value(of: statistic, sessions: earlier + middays(["2024-03-05", "2024-03-06"]), parameters: base)
                == .quantity(3, .weeks))
    }

    @Test func anEmptyWeekBreaksTheStreak() async throws {
        // Nothing in the week of 02-26.
        let sessions = middays(["2024-02-20", "2024-03-04", "2024-03-12"])
        #expect(try await value(of: statistic, sessions: sessions, parameters: base) == .quantity(2, .weeks))
        // Nothing last week nor this week: the streak is over.
        #expect(try await value(of: statistic, sessions: middays(["2024-02-20", "2024-02-27"]), parameters: base)
                == .quantity(0, .weeks))
    }

    @Test func weekStartsOnMovesTheBoundary() async throws {
        // Saturday 03-02 and Sunday 03-10: consecutive Monday weeks, but not consecutive Sunday weeks.
        let sessions = middays(["2024-03-02", "2024-03-10"])
        let asOf: [String: ParameterValue] = ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"]
        #expect(try await value(of: statistic, sessions: sessions, parameters: asOf) == .quantity(2, .weeks))
        #expect(try await value(of: statistic, sessions: sessions, parameters: asOf.merging(["week_starts_on": "monday"]) { $1 })
                == .quantity(2, .weeks))
        #expect(try await value(of: statistic, sessions: sessions, parameters: asOf.merging(["week_starts_on": "sunday"]) { $1 })
                == .quantity(1, .weeks))
    }

    @Test func dayStartsAtDecidesTheWeekOfAnEarlyMondaySession() async throws {
        // Monday 03-11 at 02:00 is Sunday 03-10's with days starting at 04:00: then only the week of 03-04 has
        // sessions, and this week, in progress, does not count yet.
        let sessions = [ExampleSession("2024-03-04T12:00:00Z", minutes: 20), ExampleSession("2024-03-11T02:00:00Z", minutes: 20)]
        #expect(try await value(of: statistic, sessions: sessions, parameters: base) == .quantity(2, .weeks))
        #expect(try await value(of: statistic, sessions: sessions, parameters: base.merging(["day_starts_at": "4h"]) { $1 })
                == .quantity(1, .weeks))
    }

    @Test func aSessionInItsOwnZoneFallsInItsOwnWeek() async throws {
        // Sunday 03-10 at 22:00 in New York is Monday 03-11 in UTC. In its own zone it is last week's and
        // joins the week of 02-26; in the report's zone it is this week's, and last week is empty.
        let session = ExampleSession("2024-03-10T22:00:00-04:00", minutes: 20, timeZone: "America/New_York")
        let sessions = middays(["2024-02-28"]) + [session]
        #expect(try await value(of: statistic, sessions: sessions, parameters: base) == .quantity(2, .weeks))
        var unzoned = session
        unzoned.timeZone = nil
        #expect(try await value(of: statistic, sessions: middays(["2024-02-28"]) + [unzoned], parameters: base)
                == .quantity(1, .weeks))
    }

    @Test func weeksRunAcrossTheNewYear() async throws {
        let sessions = middays(["2024-12-18", "2024-12-25", "2025-01-01", "2025-01-08"])
        let value = try await value(of: statistic, sessions: sessions,
                                    parameters: ["as_of": "2025-01-13T09:00:00Z", "time_zone": "UTC"])
        #expect(value == .quantity(4, .weeks))
    }

    @Test func kindsFilterAndRestDaysChangeNothingForWeeks() async throws {
        let sessions = middays(["2024-02-27", "2024-03-05"], kind: "yoga") + middays(["2024-02-20"], kind: "meditation")
        #expect(try await value(of: statistic, sessions: sessions, parameters: base) == .quantity(3, .weeks))
        #expect(try await value(of: statistic, sessions: sessions, parameters: base.merging(["kinds": ["yoga"]]) { $1 })
                == .quantity(2, .weeks))
        #expect(try await value(of: statistic, sessions: sessions,
                                parameters: base.merging(["excluded_weekdays": ["tuesday", "wednesday"]]) { $1 })
                == .quantity(3, .weeks))
    }

    @Test func sessionsAfterAsOfAreIgnored() async throws {
        let sessions = middays(["2024-03-04", "2024-03-18"]) + [ExampleSession("2024-03-13T20:00:00Z", minutes: 20)]
        #expect(try await value(of: statistic, sessions: sessions, parameters: base) == .quantity(1, .weeks))
    }

    @Test func anUnknownWeekStartIsAnError() throws {
        let parameters = StatisticParameters(statistic: "weekly_streak", values: ["week_starts_on": "mondy"])
        #expect {
            _ = try statistic.prepare(parameters)
        } throws: { error in
            (error as? ParameterError)?.parameter == "week_starts_on"
        }
    }

    @Test func emptyLog() async throws {
        #expect(try await value(of: statistic, parameters: base) == .quantity(0, .weeks))
    }
}
