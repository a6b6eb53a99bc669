import Foundation
import PracticeLog
import StillpointStatistics

// Helpers shared by the statistic modules' tests: sessions, runs in a fresh in-memory store, expected records.

/// The instant reports of these tests are made at, unless a test says otherwise.
public let asOf: ParameterValue = "2024-03-15T12:00:00Z"

/// A session starting at `start` (ISO 8601 with an offset) that lasts `seconds`.
public func session(_ start: String, seconds: TimeInterval, kind: String = "meditation", source: String = "test",
                    zone: String? = nil) -> ExampleSession {
    var session = ExampleSession(start, minutes: 0, kind: kind, source: source, timeZone: zone)
    session.duration = seconds
    return session
}

/// A session starting at `start` that lasts `minutes`.
public func session(_ start: String, minutes: Double, kind: String = "meditation", source: String = "test",
                    zone: String? = nil) -> ExampleSession {
    session(start, seconds: minutes * 60, kind: kind, source: source, zone: zone)
}

/// Runs `statistic` over `sessions` in a fresh in-memory store, with `as_of` set unless `parameters` set it.
public func run(_ statistic: any Statistic, _ sessions: [ExampleSession], _ parameters: [String: ParameterValue] = [:],
                environment: ReportEnvironment = ReportEnvironment()) async throws -> StatisticResult {
    var parameters = parameters
    if parameters["as_of"] == nil { parameters["as_of"] = asOf }
    return try await StatisticExample("test", sessions: sessions, parameters: parameters, expected: .none)
        .run(statistic, environment: environment)
}

/// `{count, time}` written out, so that the tests do not lean on the code that builds it.
public func tally(_ count: Int, _ time: TimeInterval) -> StatisticValue {
    .record([StatisticField("count", .quantity(Double(count), .count)), StatisticField("time", .quantity(time, .seconds))])
}
