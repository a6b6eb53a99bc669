import StillpointTestSupport
import Foundation
import StillpointStatistics
import Testing
@testable import SessionTimeStatistics

@Suite("LongestSession")
struct LongestSessionTests {
    let statistic = LongestSession()

    @Test func emptyLogHasNoValue() async throws {
        #expect(try await run(statistic, []).value == .none)
    }

    @Test func oneSession() async throws {
        #expect(try await run(statistic, [session("2024-03-14T07:00:00Z", minutes: 25)]).value == .quantity(1_500, .seconds))
    }

    @Test func severalKindsAndSources() async throws {
        let sessions = [
            session("2024-03-12T07:00:00Z", minutes: 30, kind: "yoga", source: "apple_health"),
            session("2024-03-13T07:00:00Z", minutes: 75, kind: "meditation", source: "insight_timer"),
            session("2024-03-14T07:00:00Z", minutes: 12, kind: "yoga", source: "csv"),
        ]
        #expect(try await run(statistic, sessions).value == .quantity(4_500, .seconds))
        #expect(try await run(statistic, sessions, ["kinds": ["yoga"]]).value == .quantity(1_800, .seconds))
    }

    @Test func sessionsAfterAsOfAreIgnored() async throws {
        let sessions = [session("2024-03-15T11:59:59Z", minutes: 20), session("2024-03-15T12:00:01Z", minutes: 90)]
        #expect(try await run(statistic, sessions).value == .quantity(1_200, .seconds))
    }

    @Test func minimumDurationCanLeaveNothing() async throws {
        let result = try await run(statistic, [session("2024-03-14T07:00:00Z", seconds: 1)], ["minimum_duration": "1m"])
        #expect(result.value == .none)
    }

    @Test(arguments: [
        (nil, 313_200, nil),
        ("cap", 14_400, "1 session longer than 4 h was capped at 4 h"),
        ("flag", 313_200, "1 session longer than 4 h was counted in full but flagged as an outlier"),
        ("drop", 1_200, "1 session longer than 4 h was left out"),
    ] as [(String?, Double, String?)])
    func outliers(outliers: String?, expected: Double, note: String?) async throws {
        var parameters: [String: ParameterValue] = [:]
        if let outliers {
            parameters = ["maximum_duration": "4h", "outliers": ParameterValue(stringLiteral: outliers)]
        }
        let result = try await run(statistic, outlierLog, parameters)
        #expect(result.value == .quantity(expected, .seconds))
        #expect(result.notes == (note.map { [$0] } ?? []))
    }

    @Test func capWithoutOutliersKeepsTheLongest() async throws {
        let result = try await run(statistic, [session("2024-03-14T07:00:00Z", minutes: 20)], ["maximum_duration": "4h"])
        #expect(result.value == .quantity(1_200, .seconds))
        #expect(result.notes == ["no session was longer than 4 h, so none was capped"])
    }
}
