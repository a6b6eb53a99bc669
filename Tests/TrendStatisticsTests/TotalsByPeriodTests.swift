import StillpointTestSupport
import Foundation
import StillpointStatistics
import Testing
@testable import TrendStatistics

/// A record of periods in the order given.
private func periods(_ entries: KeyValuePairs<String, StatisticValue>) -> StatisticValue {
    .record(entries.map { StatisticField($0.key, $0.value) })
}

@Suite("TotalsByPeriod")
struct TotalsByPeriodTests {
    let statistic = TotalsByPeriod()

    @Test func emptyLogHasNoPeriod() async throws {
        #expect(try await run(statistic, [], ["time_zone": "UTC"]).value == .record([]))
        #expect(try await run(statistic, [], ["time_zone": "UTC", "period": "year"]).value == .record([]))
    }

    @Test func oneSession() async throws {
        let sessions = [session("2024-02-29T07:00:00Z", minutes: 20)]
        #expect(try await run(statistic, sessions, ["time_zone": "UTC"]).value == periods(["2024-02": tally(1, 1_200)]))
        #expect(try await run(statistic, sessions, ["time_zone": "UTC", "period": "quarter"]).value
                == periods(["2024-Q1": tally(1, 1_200)]))
        #expect(try await run(statistic, sessions, ["time_zone": "UTC", "period": "year"]).value
                == periods(["2024": tally(1, 1_200)]))
    }

    @Test func monthsOldestFirstWithGapsAcrossTheYear() async throws {
        let sessions = [
            session("2024-02-10T07:00:00Z", minutes: 10, kind: "yoga", source: "apple_health"),
            session("2023-11-20T07:00:00Z", minutes: 20, kind: "meditation", source: "insight_timer"),
            session("2024-02-11T07:00:00Z", minutes: 30, kind: "meditation", source: "csv"),
            session("2023-12-31T07:00:00Z", minutes: 5, kind: "yoga", source: "csv"),
        ]
        #expect(try await run(statistic, sessions, ["time_zone": "UTC"]).value == periods([
            "2023-11": tally(1, 1_200), "2023-12": tally(1, 300), "2024-01": tally(0, 0), "2024-02": tally(2, 2_400),
        ]))
        #expect(try await run(statistic, sessions, ["time_zone": "UTC", "kinds": ["yoga"]]).value == periods([
            "2023-12": tally(1, 300), "2024-01": tally(0, 0), "2024-02": tally(1, 600),
        ]))
    }

    @Test func quartersAndYears() async throws {
        let sessions = [
            session("2022-12-31T07:00:00Z", minutes: 10),
            session("2023-05-01T07:00:00Z", minutes: 20),
            session("2023-09-30T07:00:00Z", minutes: 30),
            session("2024-03-15T07:00:00Z", minutes: 40),
        ]
        #expect(try await run(statistic, sessions, ["time_zone": "UTC", "period": "quarter"]).value == periods([
            "2022-Q4": tally(1, 600), "2023-Q1": tally(0, 0), "2023-Q2": tally(1, 1_200), "2023-Q3": tally(1, 1_800),
            "2023-Q4": tally(0, 0), "2024-Q1": tally(1, 2_400),
        ]))
        #expect(try await run(statistic, sessions, ["time_zone": "UTC", "period": "year"]).value == periods([
            "2022": tally(1, 600), "2023": tally(2, 3_000), "2024": tally(1, 2_400),
        ]))
    }

    @Test func aSessionAcrossMidnightAtMonthEndBelongsToItsStart() async throws {
        let sessions = [session("2024-01-31T23:30:00Z", minutes: 120)]
        #expect(try await run(statistic, sessions, ["time_zone": "UTC"]).value == periods(["2024-01": tally(1, 7_200)]))
    }

    @Test func theLocalDateDecidesThePeriod() async throws {
        // 23:30 on March 31 in New York is April 1 in UTC; a session with its own zone keeps it.
        let noZone = [session("2024-04-01T03:30:00Z", minutes: 20)]
        #expect(try await run(statistic, noZone, ["time_zone": "America/New_York", "as_of": "2024-05-01T00:00:00Z"]).value
                == periods(["2024-03": tally(1, 1_200)]))
        #expect(try await run(statistic, noZone, ["time_zone": "UTC", "as_of": "2024-05-01T00:00:00Z"]).value
                == periods(["2024-04": tally(1, 1_200)]))
        let ownZone = [session("2024-03-31T23:30:00-04:00", minutes: 20, zone: "America/New_York")]
        #expect(try await run(statistic, ownZone, ["time_zone": "Asia/Tokyo", "as_of": "2024-05-01T00:00:00Z"]).value
                == periods(["2024-03": tally(1, 1_200)]))
    }

    @Test func daylightSavingDaysStayInTheirMonth() async throws {
        // The fall-back night of 2023-11-05 in New York and 23:30 EDT on October 31.
        let sessions = [
            session("2023-10-31T23:30:00-04:00", minutes: 10),
            session("2023-11-05T01:30:00-04:00", minutes: 20), session("2023-11-05T01:30:00-05:00", minutes: 30),
        ]
        let value = try await run(statistic, sessions, ["time_zone": "America/New_York", "as_of": "2023-12-01T00:00:00Z"]).value
        #expect(value == periods(["2023-10": tally(1, 600), "2023-11": tally(2, 3_000)]))
    }

    @Test func dayStartsAtMovesTheFirstHoursToThePreviousDay() async throws {
        let sessions = [session("2024-04-01T01:00:00Z", minutes: 20)]
        let parameters: [String: ParameterValue] = ["time_zone": "UTC", "day_starts_at": "4h", "as_of": "2024-05-01T00:00:00Z"]
        #expect(try await run(statistic, sessions, parameters).value == periods(["2024-03": tally(1, 1_200)]))
    }

    @Test func filtersApplyAndOutliersCountInFull() async throws {
        let sessions = [
            session("2024-01-10T07:00:00Z", seconds: 1),
            session("2024-02-10T07:00:00Z", seconds: 87 * 3600),
            session("2024-03-20T07:00:00Z", minutes: 20),   // after as_of
        ]
        #expect(try await run(statistic, sessions, ["time_zone": "UTC"]).value
                == periods(["2024-01": tally(1, 1), "2024-02": tally(1, 313_200)]))
        #expect(try await run(statistic, sessions, ["time_zone": "UTC", "minimum_duration": "1m"]).value
                == periods(["2024-02": tally(1, 313_200)]))
    }

    @Test func aWrongPeriodIsAnError() {
        #expect(throws: ParameterError.self) {
            try statistic.prepare(StatisticParameters(statistic: statistic.id, values: ["period": "week"]))
        }
    }
}
