import Foundation
import PracticeLog
import StillpointStatistics
import StreakStatistics
import Testing

@Suite("days_since_last_session, end to end")
struct DaysSinceLastSessionTests {
    let statistic = DaysSinceLastSession()
    let base: [String: ParameterValue] = ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"]

    @Test(arguments: [
        (["2024-03-15"], 0),
        (["2024-03-14"], 1),
        (["2024-03-01", "2024-03-12"], 3),
        (["2024-02-28"], 16),  // across the leap day
        (["2023-03-15"], 366),
    ])
    func todayMinusTheLastDay(days: [String], expected: Int) async throws {
        let result = try await result(of: statistic, sessions: middays(days), parameters: base)
        #expect(result.value == .quantity(Double(expected), .days))
        #expect(result.notes == ["last session on \(days.last!)"])
    }

    @Test func emptyLogHasNoValue() async throws {
        let result = try await result(of: statistic, parameters: base)
        #expect(result.value == StatisticValue.none)
    }

    @Test func onlySessionsThatDoNotQualifyHaveNoValue() async throws {
        let sessions = middays(["2024-03-14"], minutes: 2) + middays(["2024-03-16"]) + middays(["2024-03-13"], kind: "yoga")
        let value = try await value(of: statistic, sessions: sessions,
                                    parameters: base.merging(["minimum_duration": "5m", "kinds": "meditation"]) { $1 })
        #expect(value == StatisticValue.none)
    }

    @Test func sessionsAfterAsOfAreIgnored() async throws {
        let sessions = middays(["2024-03-13"]) + [ExampleSession("2024-03-15T12:00:01Z", minutes: 20)]
            + middays(["2024-03-20"])
        #expect(try await value(of: statistic, sessions: sessions, parameters: base) == .quantity(2, .days))
        // A session that starts exactly at as_of counts.
        let atAsOf = middays(["2024-03-13", "2024-03-15"])
        #expect(try await value(of: statistic, sessions: atAsOf, parameters: base) == .quantity(0, .days))
    }

    @Test func kindsAndMinimumDuration() async throws {
        let sessions = middays(["2024-03-10"], kind: "yoga") + middays(["2024-03-12"], kind: "meditation")
            + middays(["2024-03-14"], minutes: 3, kind: "meditation")
        #expect(try await value(of: statistic, sessions: sessions, parameters: base) == .quantity(1, .days))
        #expect(try await value(of: statistic, sessions: sessions, parameters: base.merging(["minimum_duration": "5m"]) { $1 })
                == .quantity(3, .days))
        #expect(try await value(of: statistic, sessions: sessions, parameters: base.merging(["kinds": ["yoga"]]) { $1 })
                == .quantity(5, .days))
    }

    @Test func theLastDayIsNotAlwaysTheLastStart() async throws {
        // Honolulu's session starts last (06:00 UTC on the 14th) but is on its own 13th; Tokyo's, seven hours
        // earlier, is already the 14th there. The last day is the 14th.
        let tokyo = ExampleSession("2024-03-14T08:00:00+09:00", minutes: 20, timeZone: "Asia/Tokyo")  // 03-13 23:00 UTC
        let honolulu = ExampleSession("2024-03-13T20:00:00-10:00", minutes: 20, timeZone: "Pacific/Honolulu")  // 03-14 06:00 UTC
        let result = try await result(of: statistic, sessions: [tokyo, honolulu], parameters: base)
        #expect(result.value == .quantity(1, .days))
        #expect(result.notes == ["last session on 2024-03-14"])
    }

    @Test func aSessionInItsOwnZoneVersusTheReportsZone() async throws {
        // 23:30 in New York on the 14th is 03:30 UTC on the 15th.
        let zoned = ExampleSession("2024-03-14T23:30:00-04:00", minutes: 20, timeZone: "America/New_York")
        #expect(try await value(of: statistic, sessions: [zoned], parameters: base) == .quantity(1, .days))
        var unzoned = zoned
        unzoned.timeZone = nil
        #expect(try await value(of: statistic, sessions: [unzoned], parameters: base) == .quantity(0, .days))
        // The report in New York puts the unzoned session back on the 14th.
        #expect(try await value(of: statistic, sessions: [unzoned],
                                parameters: base.merging(["time_zone": "America/New_York"]) { $1 }) == .quantity(1, .days))
    }

    @Test func dayStartsAtMovesBothTheSessionAndToday() async throws {
        // 02:00 on the 15th is the 14th's with days starting at 04:00; so is as_of at 03:00.
        let sessions = [ExampleSession("2024-03-15T02:00:00Z", minutes: 20)]
        let early: [String: ParameterValue] = ["as_of": "2024-03-15T03:00:00Z", "time_zone": "UTC", "day_starts_at": "4h"]
        #expect(try await value(of: statistic, sessions: sessions, parameters: early) == .quantity(0, .days))
        let later = early.merging(["as_of": "2024-03-15T05:00:00Z"]) { $1 }
        #expect(try await value(of: statistic, sessions: sessions, parameters: later) == .quantity(1, .days))
    }

    @Test func fallBackInBerlin() async throws {
        let sessions = ["2025-10-25T20:00:00+02:00", "2025-10-26T20:00:00+01:00"].map { ExampleSession($0, minutes: 15) }
        let value = try await value(of: statistic, sessions: sessions,
                                    parameters: ["as_of": "2025-10-28T23:00:00+01:00", "time_zone": "Europe/Berlin"])
        #expect(value == .quantity(2, .days))
    }

    @Test func excludedWeekdaysIsNotAParameterHere() {
        #expect(!statistic.description.parameters.map(\.name).contains("excluded_weekdays"))
    }
}
