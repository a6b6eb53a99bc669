import ConsistencyStatistics
import Foundation
import PracticeLog
import StillpointStatistics
import Testing

@Suite("consistency, end to end")
struct ConsistencyTests {
    let statistic = Consistency()
    static let reportDay = LocalDay("2024-03-15")!
    let base: [String: ParameterValue] = ["as_of": "2024-03-15T21:00:00+01:00", "time_zone": "Europe/Berlin"]

    /// Sessions at 07:00 UTC (08:00 or 09:00 in Berlin) on the days at `offsets` from 2024-03-15.
    static func sessions(_ offsets: [Int], minutes: Double = 10, kind: String = "meditation") -> [ExampleSession] {
        offsets.map { ExampleSession("\(reportDay.adding(days: $0))T07:00:00Z", minutes: minutes, kind: kind) }
    }

    /// The consistency table of docs/statistics.md, through a store; the history crosses October's clock change.
    @Test(arguments: meditoConsistencyTable)
    func meditoTable(name: String, offsets: [Int], expected: Int) async throws {
        let value = try await value(Self.sessions(offsets), base)
        #expect(value == .quantity(Double(expected), .percent), "\(name)")
    }

    @Test func severalSessionsInADayAreOneActiveDay() async throws {
        let sessions = Self.sessions([0, -2, -3, -5, -6, -8, -9]) + Self.sessions([0, -2, -9], minutes: 30)
            + [ExampleSession("2024-03-13T18:00:00Z", minutes: 5)]
        #expect(try await value(sessions, base) == .quantity(70, .percent))
    }

    @Test func minimumDurationAndKindsDecideTheActiveDays() async throws {
        // Yesterday's session is short and the day before's is yoga.
        let sessions = Self.sessions([0, -3]) + Self.sessions([-1], minutes: 2) + Self.sessions([-2], kind: "yoga")
        #expect(try await value(sessions, base) == .quantity(100, .percent))
        #expect(try await value(sessions, base.merging(["minimum_duration": "5m"]) { $1 }) == .quantity(75, .percent))
        #expect(try await value(sessions, base.merging(["kinds": ["meditation"]]) { $1 }) == .quantity(75, .percent))
        #expect(try await value(sessions, base.merging(["kinds": ["meditation"], "minimum_duration": "5m"]) { $1 })
                == .quantity(50, .percent))
        #expect(try await value(sessions, base.merging(["kinds": ["yoga"]]) { $1 }) == .quantity(33, .percent))
    }

    @Test func sessionsAfterAsOfAreIgnored() async throws {
        // Yesterday and a session tonight after the report: 1 active day out of 2.
        let sessions = Self.sessions([-1, 1]) + [ExampleSession("2024-03-15T21:30:00+01:00", minutes: 20)]
        #expect(try await value(sessions, base) == .quantity(50, .percent))
        // Only future sessions: as empty as no sessions.
        #expect(try await value(Self.sessions([1, 2]), base) == .quantity(0, .percent))
    }

    @Test func dayStartsAtMovesToday() async throws {
        // At 02:00 on the 15th with days starting at 04:00 it is still the 14th, whose session is today's.
        let sessions = [ExampleSession("2024-03-14T12:00:00Z", minutes: 20)]
        let asOf: [String: ParameterValue] = ["as_of": "2024-03-15T02:00:00Z", "time_zone": "UTC"]
        #expect(try await value(sessions, asOf.merging(["day_starts_at": "4h"]) { $1 }) == .quantity(100, .percent))
        #expect(try await value(sessions, asOf) == .quantity(50, .percent))
    }

    @Test func aSessionInItsOwnZoneVersusTheReportsZone() async throws {
        // 23:30 on the 14th in New York is 03:30 on the 15th in UTC.
        let zoned = ExampleSession("2024-03-14T23:30:00-04:00", minutes: 20, timeZone: "America/New_York")
        var unzoned = zoned
        unzoned.timeZone = nil
        let utc: [String: ParameterValue] = ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"]
        #expect(try await value([zoned], utc) == .quantity(50, .percent))
        #expect(try await value([unzoned], utc) == .quantity(100, .percent))
    }

    @Test func theReportsZoneAppliesWithoutTheStatisticsOwn() async throws {
        let sessions = [ExampleSession("2024-03-14T12:00:00Z", minutes: 20)]
        let newYork = ReportEnvironment(timeZone: TimeZone(identifier: "America/New_York")!)
        // 02:00 UTC on the 15th is the 14th in New York: the session is today's.
        let fromReport = try await result(of: sessions, ["as_of": "2024-03-15T02:00:00Z"], environment: newYork)
        #expect(fromReport.value == .quantity(100, .percent))
        let ownZone = try await result(of: sessions, ["as_of": "2024-03-15T02:00:00Z", "time_zone": "UTC"],
                                       environment: newYork)
        #expect(ownZone.value == .quantity(50, .percent))
    }

    @Test func aMonthAcrossTheFallBackNightInBerlinIsPerfect() async throws {
        // 00:30 local every day from 10-01 through 10-30 (clocks fall back on 10-29): 30 days out of 30.
        // In UTC each session would fall on the day before and today would be empty: 95.
        let sessions = (1...30).map { day in
            let offset = day <= 29 ? "+02:00" : "+01:00"  // 00:30 on the 29th is still summer time
            return ExampleSession("2023-10-\(day < 10 ? "0\(day)" : "\(day)")T00:30:00\(offset)", minutes: 20)
        }
        let berlin: [String: ParameterValue] = ["as_of": "2023-10-30T23:00:00+01:00", "time_zone": "Europe/Berlin"]
        #expect(try await value(sessions, berlin) == .quantity(100, .percent))
        #expect(try await value(sessions, berlin.merging(["time_zone": "UTC"]) { $1 }) == .quantity(95, .percent))
    }

    @Test func emptyLog() async throws {
        let result = try await result(of: [], base)
        #expect(result.value == .quantity(0, .percent))
        #expect(result.notes.isEmpty)
    }

    // MARK: Helpers

    private func result(of sessions: [ExampleSession], _ parameters: [String: ParameterValue],
                        environment: ReportEnvironment = ReportEnvironment()) async throws -> StatisticResult {
        try await StatisticExample("test", sessions: sessions, parameters: parameters, expected: .none)
            .run(statistic, environment: environment)
    }

    private func value(_ sessions: [ExampleSession], _ parameters: [String: ParameterValue]) async throws -> StatisticValue {
        try await result(of: sessions, parameters).value
    }
}
