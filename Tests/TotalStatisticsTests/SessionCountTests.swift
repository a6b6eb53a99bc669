import StillpointTestSupport
import Foundation
import StillpointStatistics
import Testing
@testable import TotalStatistics

@Suite("SessionCount")
struct SessionCountTests {
    let statistic = SessionCount()

    @Test func emptyLogIsZero() async throws {
        #expect(try await run(statistic, []).value == .quantity(0, .count))
    }

    @Test func oneSession() async throws {
        #expect(try await run(statistic, [session("2024-03-14T07:00:00Z", minutes: 20)]).value == .quantity(1, .count))
    }

    @Test func severalKindsAndSources() async throws {
        let sessions = [
            session("2024-03-12T07:00:00Z", minutes: 10, kind: "meditation", source: "insight_timer"),
            session("2024-03-13T07:00:00Z", minutes: 50, kind: "yoga", source: "apple_health"),
            session("2024-03-14T07:00:00Z", minutes: 15, kind: "yoga", source: "csv"),
        ]
        #expect(try await run(statistic, sessions).value == .quantity(3, .count))
        #expect(try await run(statistic, sessions, ["kinds": ["yoga"]]).value == .quantity(2, .count))
        #expect(try await run(statistic, sessions, ["kinds": "meditation"]).value == .quantity(1, .count))
    }

    @Test func filtersApply() async throws {
        let sessions = [
            session("2024-03-12T07:00:00Z", seconds: 0),                // never counts
            session("2024-03-13T07:00:00Z", seconds: 1),
            session("2024-03-14T07:00:00Z", seconds: 87 * 3600),        // counted: no cap for a count
            session("2024-03-15T12:00:00Z", minutes: 10),               // exactly as_of: counts
            session("2024-03-15T12:00:01Z", minutes: 10),               // after as_of
        ]
        #expect(try await run(statistic, sessions).value == .quantity(3, .count))
        #expect(try await run(statistic, sessions, ["minimum_duration": "1m"]).value == .quantity(2, .count))
        #expect(try await run(statistic, sessions, ["minimum_duration": "1s"]).value == .quantity(3, .count))
    }

    @Test func theReportsKindsApplyUnlessTheStatisticSaysOtherwise() async throws {
        let sessions = [session("2024-03-13T07:00:00Z", minutes: 10), session("2024-03-14T07:00:00Z", minutes: 10, kind: "yoga")]
        let environment = ReportEnvironment(kinds: ["yoga"])
        #expect(try await run(statistic, sessions, environment: environment).value == .quantity(1, .count))
        #expect(try await run(statistic, sessions, ["kinds": ["meditation", "yoga"]], environment: environment).value
                == .quantity(2, .count))
    }
}
