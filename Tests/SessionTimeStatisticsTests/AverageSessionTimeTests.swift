import StillpointTestSupport
import Foundation
import StillpointStatistics
import Testing
@testable import SessionTimeStatistics

/// A 1-second session, an ordinary 20-minute one, and a timer left running for 87 hours.
let outlierLog = [
    session("2024-03-12T07:00:00Z", seconds: 1),
    session("2024-03-13T07:00:00Z", minutes: 20),
    session("2024-03-14T07:00:00Z", seconds: 87 * 3600),
]

@Suite("AverageSessionTime")
struct AverageSessionTimeTests {
    let statistic = AverageSessionTime()

    @Test func emptyLogHasNoValue() async throws {
        let result = try await run(statistic, [])
        #expect(result.value == .none)
        #expect(result.notes.isEmpty)
    }

    @Test func oneSessionIsItsOwnAverage() async throws {
        let result = try await run(statistic, [session("2024-03-14T07:00:00Z", minutes: 25)])
        #expect(result.value == .quantity(1_500, .seconds))
    }

    @Test func everyKindAndSourceCounts() async throws {
        let sessions = [
            session("2024-03-12T07:00:00Z", minutes: 10, kind: "meditation", source: "insight_timer"),
            session("2024-03-13T07:00:00Z", minutes: 50, kind: "yoga", source: "apple_health"),
            session("2024-03-14T07:00:00Z", minutes: 15, kind: "breathwork", source: "csv"),
        ]
        #expect(try await run(statistic, sessions).value == .quantity(1_500, .seconds))
        #expect(try await run(statistic, sessions, ["kinds": ["yoga", "breathwork"]]).value == .quantity(1_950, .seconds))
    }

    @Test func aSessionAcrossMidnightCountsWhole() async throws {
        let result = try await run(statistic, [session("2024-03-13T23:30:00Z", minutes: 60), session("2024-03-14T07:00:00Z", minutes: 20)])
        #expect(result.value == .quantity(2_400, .seconds))
    }

    @Test func filtersApply() async throws {
        let sessions = [
            session("2024-03-13T07:00:00Z", minutes: 2),
            session("2024-03-14T07:00:00Z", minutes: 20),
            session("2024-03-15T07:00:00Z", minutes: 40),
            session("2024-03-15T12:00:01Z", minutes: 90),   // after as_of
        ]
        #expect(try await run(statistic, sessions).value == .quantity((120 + 1_200 + 2_400) / 3, .seconds))
        #expect(try await run(statistic, sessions, ["minimum_duration": "5m"]).value == .quantity(1_800, .seconds))
        #expect(try await run(statistic, sessions, ["as_of": "2024-03-16T00:00:00Z"]).value
                == .quantity((120 + 1_200 + 2_400 + 5_400) / 4, .seconds))
    }

    @Test func zeroLengthSessionsDoNotCount() async throws {
        let result = try await run(statistic, [session("2024-03-13T07:00:00Z", seconds: 0), session("2024-03-14T07:00:00Z", minutes: 20)])
        #expect(result.value == .quantity(1_200, .seconds))
    }

    // MARK: Outliers

    @Test func withoutMaximumEveryDurationCountsInFull() async throws {
        let result = try await run(statistic, outlierLog)
        #expect(result.value == .quantity((1 + 1_200 + 313_200) / 3, .seconds))
        #expect(result.notes.isEmpty)
    }

    @Test func capCountsAnOutlierAsTheMaximum() async throws {
        let result = try await run(statistic, outlierLog, ["maximum_duration": "4h", "outliers": "cap"])
        #expect(result.value == .quantity((1 + 1_200 + 14_400) / 3, .seconds))
        #expect(result.notes == ["1 session longer than 4 h was capped at 4 h"])
    }

    @Test func capIsTheDefault() async throws {
        let result = try await run(statistic, outlierLog, ["maximum_duration": "4h"])
        #expect(result.value == .quantity((1 + 1_200 + 14_400) / 3, .seconds))
        #expect(result.notes == ["1 session longer than 4 h was capped at 4 h"])
    }

    @Test func flagKeepsAnOutlierAndSaysSo() async throws {
        let result = try await run(statistic, outlierLog, ["maximum_duration": "4h", "outliers": "flag"])
        #expect(result.value == .quantity((1 + 1_200 + 313_200) / 3, .seconds))
        #expect(result.notes == ["1 session longer than 4 h was counted in full but flagged as an outlier"])
    }

    @Test func dropLeavesAnOutlierOut() async throws {
        let result = try await run(statistic, outlierLog, ["maximum_duration": "4h", "outliers": "drop"])
        #expect(result.value == .quantity((1 + 1_200) / 2, .seconds))
        #expect(result.notes == ["1 session longer than 4 h was left out"])
    }

    @Test func minimumDurationRemovesTheOneSecondSession() async throws {
        let result = try await run(statistic, outlierLog, ["maximum_duration": "4h", "minimum_duration": "1m"])
        #expect(result.value == .quantity((1_200 + 14_400) / 2, .seconds))
    }

    @Test func aSessionOfExactlyTheMaximumIsNoOutlier() async throws {
        let sessions = [session("2024-03-13T07:00:00Z", minutes: 240), session("2024-03-14T07:00:00Z", minutes: 241)]
        let result = try await run(statistic, sessions, ["maximum_duration": "4h", "outliers": "drop"])
        #expect(result.value == .quantity(14_400, .seconds))
        #expect(result.notes == ["1 session longer than 4 h was left out"])
    }

    @Test func notesCountEveryOutlier() async throws {
        let sessions = outlierLog + [session("2024-03-15T07:00:00Z", minutes: 300)]
        let result = try await run(statistic, sessions, ["maximum_duration": "4h"])
        #expect(result.value == .quantity((1 + 1_200 + 14_400 + 14_400) / 4, .seconds))
        #expect(result.notes == ["2 sessions longer than 4 h were capped at 4 h"])
    }

    @Test func noOutlierIsStatedToo() async throws {
        let result = try await run(statistic, [session("2024-03-14T07:00:00Z", minutes: 20)], ["maximum_duration": "90m"])
        #expect(result.value == .quantity(1_200, .seconds))
        #expect(result.notes == ["no session was longer than 1 h 30 min, so none was capped"])
    }

    @Test func droppingEverySessionLeavesNoValue() async throws {
        let result = try await run(statistic, [session("2024-03-14T07:00:00Z", seconds: 87 * 3600)],
                                   ["maximum_duration": "4h", "outliers": "drop"])
        #expect(result.value == .none)
        #expect(result.notes == ["1 session longer than 4 h was left out"])
    }

    // MARK: Parameters

    @Test func describesEveryParameterItReads() {
        #expect(statistic.description.parameters.map(\.name)
                == ["kinds", "minimum_duration", "as_of", "maximum_duration", "outliers"])
    }

    @Test func wrongParametersAreErrors() throws {
        let prepare = { (values: [String: ParameterValue]) in
            try statistic.prepare(StatisticParameters(statistic: statistic.id, values: values))
        }
        #expect(throws: ParameterError.self) { try prepare(["maximum_duration": "4h", "outliers": "trim"]) }
        #expect(throws: ParameterError.self) { try prepare(["outliers": "drop"]) }
        #expect(throws: ParameterError.self) { try prepare(["maximum_duration": "0"]) }
        #expect(throws: ParameterError.self) { try prepare(["maximum_duration": "long"]) }
        _ = try prepare(["maximum_duration": "4h", "outliers": "flag"])
    }
}
