import StillpointTestSupport
import Foundation
import StillpointStatistics
import Testing
@testable import RhythmStatistics

/// All 24 hours, the ones not in `tallies` at zero.
private func hours(_ tallies: [Int: StatisticValue]) -> StatisticValue {
    .record((0..<24).map { StatisticField(String($0), tallies[$0] ?? tally(0, 0)) })
}

@Suite("SessionsByHour")
struct SessionsByHourTests {
    let statistic = SessionsByHour()

    @Test func emptyLogHasTwentyFourEmptyHours() async throws {
        let value = try await run(statistic, [], ["time_zone": "UTC"]).value
        #expect(value == hours([:]))
        guard case .record(let fields) = value else { Issue.record("not a record"); return }
        #expect(fields.map(\.key) == (0..<24).map(String.init))
    }

    @Test func oneSession() async throws {
        let value = try await run(statistic, [session("2024-03-14T07:59:59Z", minutes: 20)], ["time_zone": "UTC"]).value
        #expect(value == hours([7: tally(1, 1_200)]))
    }

    @Test func severalKindsAndSources() async throws {
        let sessions = [
            session("2024-03-11T07:00:00Z", minutes: 30, kind: "yoga", source: "apple_health"),
            session("2024-03-12T07:45:00Z", minutes: 10, kind: "meditation", source: "insight_timer"),
            session("2024-03-13T00:00:00Z", minutes: 20, kind: "meditation", source: "csv"),
        ]
        #expect(try await run(statistic, sessions, ["time_zone": "UTC"]).value
                == hours([0: tally(1, 1_200), 7: tally(2, 2_400)]))
        #expect(try await run(statistic, sessions, ["time_zone": "UTC", "kinds": ["meditation"]]).value
                == hours([0: tally(1, 1_200), 7: tally(1, 600)]))
    }

    @Test func aSessionAcrossMidnightCountsForItsStartHour() async throws {
        let value = try await run(statistic, [session("2024-03-10T23:30:00Z", minutes: 120)], ["time_zone": "UTC"]).value
        #expect(value == hours([23: tally(1, 7_200)]))
    }

    @Test func springForwardInNewYorkHasNoHourTwo() async throws {
        let sessions = [session("2023-03-12T01:30:00-05:00", minutes: 20), session("2023-03-12T03:30:00-04:00", minutes: 30)]
        let value = try await run(statistic, sessions, ["time_zone": "America/New_York", "as_of": "2023-03-13T00:00:00Z"]).value
        #expect(value == hours([1: tally(1, 1_200), 3: tally(1, 1_800)]))
    }

    @Test func fallBackInNewYorkHasTwoHourOnes() async throws {
        let sessions = [
            session("2023-11-05T01:30:00-04:00", minutes: 20), session("2023-11-05T01:30:00-05:00", minutes: 10),
            session("2023-11-05T02:30:00-05:00", minutes: 5),
        ]
        let value = try await run(statistic, sessions, ["time_zone": "America/New_York", "as_of": "2023-11-06T00:00:00Z"]).value
        #expect(value == hours([1: tally(2, 1_800), 2: tally(1, 300)]))
    }

    @Test func eachSessionKeepsItsOwnZone() async throws {
        // 06:30 in Tokyo is 17:30 the day before in New York, the report's zone.
        let sessions = [
            session("2024-03-14T06:30:00+09:00", minutes: 20, zone: "Asia/Tokyo"),
            session("2024-03-14T12:00:00Z", minutes: 10),   // no zone: 08:00 in New York (EDT)
        ]
        let value = try await run(statistic, sessions, ["time_zone": "America/New_York"]).value
        #expect(value == hours([6: tally(1, 1_200), 8: tally(1, 600)]))
        let environment = ReportEnvironment(timeZone: try #require(TimeZone(identifier: "Asia/Kolkata")))
        // 12:00 UTC is 17:30 in Kolkata.
        #expect(try await run(statistic, sessions, environment: environment).value
                == hours([6: tally(1, 1_200), 17: tally(1, 600)]))
    }

    @Test func dayStartsAtPlaysNoPart() async throws {
        let sessions = [session("2024-03-12T01:00:00Z", minutes: 20)]
        #expect(try await run(statistic, sessions, ["time_zone": "UTC", "day_starts_at": "4h"]).value == hours([1: tally(1, 1_200)]))
        let environment = ReportEnvironment(timeZone: try #require(TimeZone(identifier: "UTC")), dayStartsAt: 4 * 3600)
        #expect(try await run(statistic, sessions, environment: environment).value == hours([1: tally(1, 1_200)]))
        #expect(!statistic.description.parameters.map(\.name).contains("day_starts_at"))
    }

    @Test func filtersApply() async throws {
        let sessions = [
            session("2024-03-11T05:00:00Z", seconds: 1),
            session("2024-03-12T05:10:00Z", seconds: 87 * 3600),
            session("2024-03-15T12:30:00Z", minutes: 20),   // after as_of
        ]
        #expect(try await run(statistic, sessions, ["time_zone": "UTC"]).value == hours([5: tally(2, 313_201)]))
        #expect(try await run(statistic, sessions, ["time_zone": "UTC", "minimum_duration": "1m"]).value
                == hours([5: tally(1, 313_200)]))
        #expect(try await run(statistic, sessions, ["time_zone": "UTC", "as_of": "2024-03-16T00:00:00Z"]).value
                == hours([5: tally(2, 313_201), 12: tally(1, 1_200)]))
    }
}
