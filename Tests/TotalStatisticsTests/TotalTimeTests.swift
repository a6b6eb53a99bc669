import StillpointTestSupport
import Foundation
import StillpointStatistics
import Testing
@testable import TotalStatistics

@Suite("TotalTime")
struct TotalTimeTests {
    let statistic = TotalTime()

    @Test func emptyLogIsZeroSeconds() async throws {
        #expect(try await run(statistic, []).value == .quantity(0, .seconds))
    }

    @Test func oneSession() async throws {
        #expect(try await run(statistic, [session("2024-03-14T07:00:00Z", minutes: 20)]).value == .quantity(1_200, .seconds))
    }

    @Test func severalKindsAndSources() async throws {
        let sessions = [
            session("2024-03-12T07:00:00Z", minutes: 10, kind: "meditation", source: "insight_timer"),
            session("2024-03-13T07:00:00Z", minutes: 50, kind: "yoga", source: "apple_health"),
            session("2024-03-14T07:00:00Z", minutes: 15, kind: "yoga", source: "csv"),
        ]
        #expect(try await run(statistic, sessions).value == .quantity(4_500, .seconds))
        #expect(try await run(statistic, sessions, ["kinds": ["yoga"]]).value == .quantity(3_900, .seconds))
    }

    @Test func sessionsAcrossMidnightAndDaylightSavingCountTheirStoredDuration() async throws {
        // 01:30 EST on the spring-forward night, lasting an hour: the wall clock shows 03:30 at its end.
        let sessions = [
            session("2024-03-13T23:30:00Z", minutes: 60),
            session("2023-03-12T01:30:00-05:00", minutes: 60, zone: "America/New_York"),
        ]
        #expect(try await run(statistic, sessions).value == .quantity(7_200, .seconds))
    }

    @Test func filtersApplyAndOutliersAreNotCapped() async throws {
        let sessions = [
            session("2024-03-13T07:00:00Z", seconds: 1),
            session("2024-03-14T07:00:00Z", seconds: 87 * 3600),
            session("2024-03-15T13:00:00Z", minutes: 10),               // after as_of
        ]
        #expect(try await run(statistic, sessions).value == .quantity(313_201, .seconds))
        #expect(try await run(statistic, sessions, ["minimum_duration": "1m"]).value == .quantity(313_200, .seconds))
        #expect(try await run(statistic, sessions, ["as_of": "2024-03-16T00:00:00Z"]).value == .quantity(313_801, .seconds))
    }
}
