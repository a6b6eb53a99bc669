import StillpointTestSupport
import Foundation
import StillpointStatistics
import Testing
@testable import RhythmStatistics

private let mondayFirst = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

/// All seven days in `order`, the ones not in `tallies` at zero.
private func week(_ tallies: [String: StatisticValue], order: [String] = mondayFirst) -> StatisticValue {
    .record(order.map { StatisticField($0, tallies[$0] ?? tally(0, 0)) })
}

@Suite("SessionsByWeekday")
struct SessionsByWeekdayTests {
    let statistic = SessionsByWeekday()

    @Test func emptyLogHasSevenNamedEmptyDays() async throws {
        let value = try await run(statistic, [], ["time_zone": "UTC"]).value
        #expect(value == week([:]))
        guard case .record(let fields) = value else { Issue.record("not a record"); return }
        #expect(fields.map(\.key) == mondayFirst)
    }

    @Test func oneSession() async throws {
        // 2024-03-14 is a Thursday.
        let value = try await run(statistic, [session("2024-03-14T07:00:00Z", minutes: 20)], ["time_zone": "UTC"]).value
        #expect(value == week(["thursday": tally(1, 1_200)]))
    }

    @Test func severalKindsAndSources() async throws {
        let sessions = [
            session("2024-03-11T07:00:00Z", minutes: 30, kind: "yoga", source: "apple_health"),
            session("2024-03-11T19:00:00Z", minutes: 10, kind: "meditation", source: "insight_timer"),
            session("2024-03-04T07:00:00Z", minutes: 15, kind: "yoga", source: "csv"),
            session("2024-03-13T07:00:00Z", minutes: 20, kind: "meditation", source: "csv"),
        ]
        #expect(try await run(statistic, sessions, ["time_zone": "UTC"]).value
                == week(["monday": tally(3, 3_300), "wednesday": tally(1, 1_200)]))
        #expect(try await run(statistic, sessions, ["time_zone": "UTC", "kinds": ["yoga"]]).value
                == week(["monday": tally(2, 2_700)]))
    }

    @Test func aSessionAcrossMidnightBelongsToTheDayOfItsStart() async throws {
        // Sunday 23:30 for two hours.
        let value = try await run(statistic, [session("2024-03-10T23:30:00Z", minutes: 120)], ["time_zone": "UTC"]).value
        #expect(value == week(["sunday": tally(1, 7_200)]))
    }

    @Test func springForwardInNewYork() async throws {
        // Sunday 2023-03-12: 01:30 EST and 03:30 EDT; and 23:30 EST on Saturday, which is Sunday in UTC.
        let sessions = [
            session("2023-03-11T23:30:00-05:00", minutes: 10),
            session("2023-03-12T01:30:00-05:00", minutes: 20), session("2023-03-12T03:30:00-04:00", minutes: 30),
        ]
        let newYork: [String: ParameterValue] = ["time_zone": "America/New_York", "as_of": "2023-03-13T00:00:00Z"]
        #expect(try await run(statistic, sessions, newYork).value
                == week(["saturday": tally(1, 600), "sunday": tally(2, 3_000)]))
        #expect(try await run(statistic, sessions, ["time_zone": "UTC", "as_of": "2023-03-13T00:00:00Z"]).value
                == week(["sunday": tally(3, 3_600)]))
    }

    @Test func fallBackInNewYork() async throws {
        // Sunday 2023-11-05: 01:30 EDT, 01:30 EST and 02:30 EST are all Sunday.
        let sessions = [
            session("2023-11-05T01:30:00-04:00", minutes: 20), session("2023-11-05T01:30:00-05:00", minutes: 20),
            session("2023-11-05T02:30:00-05:00", minutes: 20),
        ]
        let value = try await run(statistic, sessions, ["time_zone": "America/New_York", "as_of": "2023-11-06T00:00:00Z"]).value
        #expect(value == week(["sunday": tally(3, 3_600)]))
    }

    @Test func eachSessionKeepsItsOwnZone() async throws {
        // The same instant, Friday 03:00 UTC: Thursday 23:00 in New York, Friday 04:00 in London.
        let sessions = [
            session("2023-06-01T23:00:00-04:00", minutes: 20, zone: "America/New_York"),
            session("2023-06-02T04:00:00+01:00", minutes: 10, zone: "Europe/London"),
        ]
        let value = try await run(statistic, sessions, ["time_zone": "UTC", "as_of": "2023-06-03T00:00:00Z"]).value
        #expect(value == week(["thursday": tally(1, 1_200), "friday": tally(1, 600)]))
    }

    @Test func sessionsWithoutAZoneUseTheReports() async throws {
        // Friday 02:00 UTC is Thursday 22:00 in New York.
        let sessions = [session("2024-03-15T02:00:00Z", minutes: 20)]
        #expect(try await run(statistic, sessions, ["time_zone": "America/New_York"]).value == week(["thursday": tally(1, 1_200)]))
        #expect(try await run(statistic, sessions, ["time_zone": "UTC"]).value == week(["friday": tally(1, 1_200)]))
    }

    @Test func dayStartsAtApplies() async throws {
        // Tuesday 01:00: Monday's when days start at 04:00.
        let sessions = [session("2024-03-12T01:00:00Z", minutes: 20)]
        #expect(try await run(statistic, sessions, ["time_zone": "UTC", "day_starts_at": "4h"]).value
                == week(["monday": tally(1, 1_200)]))
        #expect(try await run(statistic, sessions, ["time_zone": "UTC"]).value == week(["tuesday": tally(1, 1_200)]))
    }

    @Test func weekStartsOnOrdersTheDays() async throws {
        let sessions = [session("2024-03-10T07:00:00Z", minutes: 20)]
        let order = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
        let value = try await run(statistic, sessions, ["time_zone": "UTC", "week_starts_on": "sunday"]).value
        #expect(value == week(["sunday": tally(1, 1_200)], order: order))
    }

    @Test func filtersApply() async throws {
        let sessions = [
            session("2024-03-11T07:00:00Z", seconds: 1),
            session("2024-03-12T07:00:00Z", seconds: 87 * 3600),
            session("2024-03-15T12:30:00Z", minutes: 20),   // after as_of
        ]
        #expect(try await run(statistic, sessions, ["time_zone": "UTC"]).value
                == week(["monday": tally(1, 1), "tuesday": tally(1, 313_200)]))
        #expect(try await run(statistic, sessions, ["time_zone": "UTC", "minimum_duration": "1m"]).value
                == week(["tuesday": tally(1, 313_200)]))
    }

    @Test func aWrongFirstWeekdayIsAnError() {
        #expect(throws: ParameterError.self) {
            try statistic.prepare(StatisticParameters(statistic: statistic.id, values: ["week_starts_on": "someday"]))
        }
    }
}
