import StillpointTestSupport
import Foundation
import StillpointStatistics
import Testing
@testable import TotalStatistics

@Suite("ActiveDays")
struct ActiveDaysTests {
    let statistic = ActiveDays()

    @Test func emptyLogIsZero() async throws {
        #expect(try await run(statistic, []).value == .quantity(0, .days))
    }

    @Test func oneSession() async throws {
        #expect(try await run(statistic, [session("2024-03-14T07:00:00Z", minutes: 20)]).value == .quantity(1, .days))
    }

    @Test func severalSessionsADayMakeOneDay() async throws {
        let sessions = [
            session("2024-03-14T07:00:00Z", minutes: 20, kind: "yoga", source: "apple_health"),
            session("2024-03-14T12:00:00Z", minutes: 10, kind: "meditation", source: "insight_timer"),
            session("2024-03-14T21:00:00Z", minutes: 10, kind: "meditation", source: "csv"),
            session("2024-03-15T07:00:00Z", minutes: 10, kind: "yoga", source: "csv"),
        ]
        #expect(try await run(statistic, sessions, ["time_zone": "UTC"]).value == .quantity(2, .days))
        #expect(try await run(statistic, sessions, ["time_zone": "UTC", "kinds": ["meditation"]]).value == .quantity(1, .days))
    }

    @Test func aSessionAcrossMidnightBelongsToTheDayOfItsStart() async throws {
        // 23:30 lasting two hours, and the next day's 07:00: two days, not three.
        let sessions = [session("2024-03-13T23:30:00Z", minutes: 120), session("2024-03-14T07:00:00Z", minutes: 20)]
        #expect(try await run(statistic, sessions, ["time_zone": "UTC"]).value == .quantity(2, .days))
        // Ending on the 14th is not activity on the 14th.
        #expect(try await run(statistic, [sessions[0]], ["time_zone": "UTC"]).value == .quantity(1, .days))
    }

    @Test func springForwardInNewYorkIsOneDay() async throws {
        let sessions = [session("2023-03-12T01:30:00-05:00", minutes: 20), session("2023-03-12T03:30:00-04:00", minutes: 20)]
        let parameters: [String: ParameterValue] = ["time_zone": "America/New_York", "as_of": "2023-03-13T00:00:00Z"]
        #expect(try await run(statistic, sessions, parameters).value == .quantity(1, .days))
    }

    @Test func fallBackInNewYorkIsOneDay() async throws {
        let sessions = [
            session("2023-11-05T01:30:00-04:00", minutes: 20), session("2023-11-05T01:30:00-05:00", minutes: 20),
            session("2023-11-05T02:30:00-05:00", minutes: 20),
        ]
        let parameters: [String: ParameterValue] = ["time_zone": "America/New_York", "as_of": "2023-11-06T00:00:00Z"]
        #expect(try await run(statistic, sessions, parameters).value == .quantity(1, .days))
        // 22:00 the evening before is another day in New York, but the same day (02:00) in UTC.
        let withEvening = sessions + [session("2023-11-04T22:00:00-04:00", minutes: 20)]
        #expect(try await run(statistic, withEvening, parameters).value == .quantity(2, .days))
        #expect(try await run(statistic, withEvening, ["time_zone": "UTC", "as_of": "2023-11-06T00:00:00Z"]).value
                == .quantity(1, .days))
    }

    @Test func eachSessionKeepsItsOwnZone() async throws {
        // The same instant, 2023-06-02 03:00 UTC, lived in New York and in London: two days.
        let sessions = [
            session("2023-06-01T23:00:00-04:00", minutes: 20, zone: "America/New_York"),
            session("2023-06-02T04:00:00+01:00", minutes: 20, zone: "Europe/London"),
        ]
        #expect(try await run(statistic, sessions, ["time_zone": "UTC", "as_of": "2023-06-03T00:00:00Z"]).value
                == .quantity(2, .days))
    }

    @Test func sessionsWithoutAZoneUseTheReports() async throws {
        // 02:00 UTC on the 15th is the 14th in New York: with the 14th's session, one day there, two in UTC.
        let sessions = [session("2024-03-14T15:00:00Z", minutes: 20), session("2024-03-15T02:00:00Z", minutes: 20)]
        #expect(try await run(statistic, sessions, ["time_zone": "America/New_York"]).value == .quantity(1, .days))
        #expect(try await run(statistic, sessions, ["time_zone": "UTC"]).value == .quantity(2, .days))
        let environment = ReportEnvironment(timeZone: try #require(TimeZone(identifier: "America/New_York")))
        #expect(try await run(statistic, sessions, environment: environment).value == .quantity(1, .days))
    }

    @Test func dayStartsAtMovesEarlySessionsToTheDayBefore() async throws {
        let sessions = [session("2024-03-13T22:00:00Z", minutes: 20), session("2024-03-14T03:59:59Z", minutes: 20),
                        session("2024-03-14T04:00:00Z", minutes: 20)]
        #expect(try await run(statistic, sessions, ["time_zone": "UTC"]).value == .quantity(2, .days))
        #expect(try await run(statistic, sessions, ["time_zone": "UTC", "day_starts_at": "4h"]).value == .quantity(2, .days))
        #expect(try await run(statistic, Array(sessions.prefix(2)), ["time_zone": "UTC", "day_starts_at": "4h"]).value
                == .quantity(1, .days))
        #expect(try await run(statistic, Array(sessions.prefix(2)), ["time_zone": "UTC"]).value == .quantity(2, .days))
    }

    @Test func filtersApply() async throws {
        let sessions = [
            session("2024-03-12T07:00:00Z", seconds: 1),
            session("2024-03-13T07:00:00Z", minutes: 20),
            session("2024-03-16T07:00:00Z", minutes: 20),   // after as_of
        ]
        #expect(try await run(statistic, sessions, ["time_zone": "UTC"]).value == .quantity(2, .days))
        #expect(try await run(statistic, sessions, ["time_zone": "UTC", "minimum_duration": "1m"]).value == .quantity(1, .days))
    }
}
