import Foundation
import PracticeLog
import StillpointStatistics

/// `recent_time`: the practice time of the last `days` days, today included (28 by default): what a clinic
/// asks about at a check-up.
///
/// ```yaml
/// - id: recent_time
///   as: last_week_time
///   parameters: {days: 7}
/// ```
public struct RecentTime: Statistic {
    public let id = "recent_time"

    public init() {}

    /// The `days` parameter.
    static let days = ParameterDescription(
        "days", type: "whole number, 1 to 366", default: "28",
        meaning: "How many days back from today, today included, count.")

    public let description = StatisticDescription(
        name: "Recent time",
        summary: "The total time of the qualifying sessions on the last days, today included (28 by default).",
        parameters: ParameterDescription.sessionFilter + [RecentTime.days],
        examples: [
            StatisticExample(
                "of sessions on the 1st, 10th and 15th of March, the last 7 days hold the 10th and the 15th",
                sessions: [.init("2024-03-01T07:00:00Z", minutes: 30), .init("2024-03-10T07:00:00Z", minutes: 20),
                           .init("2024-03-15T07:00:00Z", minutes: 15)],
                parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC", "days": "7"],
                expected: .quantity(2_100, .seconds)),
            StatisticExample(
                "an empty log has no recent time",
                sessions: [],
                parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                expected: .quantity(0, .seconds)),
            StatisticExample(
                "a session's day is its own zone's: 23:30 on the 7th in New York (the 8th in UTC) is before the 7 days from the 8th",
                sessions: [.init("2024-03-07T23:30:00-05:00", minutes: 30, timeZone: "America/New_York"),
                           .init("2024-03-08T06:00:00-05:00", minutes: 10, timeZone: "America/New_York")],
                parameters: ["as_of": "2024-03-14T16:00:00Z", "time_zone": "UTC", "days": "7"],
                expected: .quantity(600, .seconds)),
        ])

    public func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let filter = try SessionFilter(parameters)
        let boundary = try parameters.dayBoundary()
        let days = try parameters.integer("days") ?? 28
        guard (1...366).contains(days) else {
            throw ParameterError(statistic: parameters.statistic, parameter: "days", location: parameters.values["days"]?.location,
                                 message: "expected a number of days from 1 to 366, got \(days)")
        }
        let first = boundary.day(of: filter.asOf).adding(days: 1 - days)
        return PreparedStatistic(reading: filter) { digest in
            // The report's sessions per local day (each in its own zone), summed over the window.
            let total = digest.sessions(filter, boundary: boundary).days.filter { $0.day >= first }.reduce(0) { $0 + $1.tally.time }
            return StatisticResult(.quantity(total, .seconds))
        }
    }
}
