import Foundation
import PracticeLog
import StillpointStatistics
import Testing

/// Runs `statistic` over `sessions` in a fresh in-memory store, through the path a report takes.
func result(of statistic: any Statistic, sessions: [ExampleSession] = [], parameters: [String: ParameterValue],
            environment: ReportEnvironment = ReportEnvironment()) async throws -> StatisticResult {
    try await StatisticExample("test", sessions: sessions, parameters: parameters, expected: .none)
        .run(statistic, environment: environment)
}

/// The value `statistic` computes over `sessions`.
func value(of statistic: any Statistic, sessions: [ExampleSession] = [], parameters: [String: ParameterValue],
           environment: ReportEnvironment = ReportEnvironment()) async throws -> StatisticValue {
    try await result(of: statistic, sessions: sessions, parameters: parameters, environment: environment).value
}

/// A date written `yyyy-MM-dd`.
func localDay(_ text: String) throws -> LocalDay {
    try #require(LocalDay(text))
}

/// The record `best_streaks` gives for the run from `start` through `end`, written out field by field so
/// that a change of shape fails here.
func runRecord(_ start: String, _ end: String, length: Double) throws -> StatisticValue {
    .record([
        StatisticField("start", .day(try localDay(start))),
        StatisticField("end", .day(try localDay(end))),
        StatisticField("length", .quantity(length, .days)),
    ])
}

/// Sessions at 12:00 UTC on each of `days` (`yyyy-MM-dd`).
func middays(_ days: [String], minutes: Double = 20, kind: String = "meditation") -> [ExampleSession] {
    days.map { ExampleSession("\($0)T12:00:00Z", minutes: minutes, kind: kind) }
}
