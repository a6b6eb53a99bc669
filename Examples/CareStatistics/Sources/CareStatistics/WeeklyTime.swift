import Foundation
import PracticeLog
import StillpointStatistics

/// `weekly_time`: how many sessions and how much time in each of the last `weeks` weeks (12 by default), this
/// one included, keyed by each week's first day, oldest first. Its presentation is `byPeriod`, so the HTML
/// report draws it as bars per week, as it draws the built-in monthly totals.
///
/// ```yaml
/// - id: weekly_time
///   parameters: {weeks: 8, week_starts_on: sunday}
/// ```
public struct WeeklyTime: Statistic {
    public let id = "weekly_time"

    public init() {}

    /// The `weeks` parameter.
    static let weeks = ParameterDescription(
        "weeks", type: "whole number, 1 to 104", default: "12",
        meaning: "How many weeks, this one included, it covers.")

    public let description = StatisticDescription(
        name: "Weekly time",
        summary: "The sessions and time of each of the last weeks, this one included, keyed by the week's first day.",
        parameters: ParameterDescription.sessionFilter + [.weekStartsOn, WeeklyTime.weeks],
        examples: [
            StatisticExample(
                "two weeks: last week's two sessions, and this week's one",
                sessions: [.init("2024-03-05T07:00:00Z", minutes: 20), .init("2024-03-07T07:00:00Z", minutes: 40),
                           .init("2024-03-12T07:00:00Z", minutes: 15)],
                parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC", "weeks": "2"],
                expected: .record([StatisticField("2024-03-04", SessionTally(count: 2, time: 3_600).value),
                                   StatisticField("2024-03-11", SessionTally(count: 1, time: 900).value)])),
            StatisticExample(
                "an empty log has weeks without sessions",
                sessions: [],
                parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC", "weeks": "1"],
                expected: .record([StatisticField("2024-03-11", SessionTally().value)])),
        ],
        presentation: .byPeriod)

    public func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let filter = try SessionFilter(parameters)
        let boundary = try parameters.dayBoundary()
        let firstWeekday = try parameters.weekday("week_starts_on") ?? .monday
        let count = try parameters.integer("weeks") ?? 12
        guard (1...104).contains(count) else {
            throw ParameterError(statistic: parameters.statistic, parameter: "weeks", location: parameters.values["weeks"]?.location,
                                 message: "expected a number of weeks from 1 to 104, got \(count)")
        }
        let thisWeek = boundary.day(of: filter.asOf).startOfWeek(startingOn: firstWeekday)
        let starts = (0..<count).reversed().map { thisWeek.adding(days: -7 * $0) }
        return PreparedStatistic(reading: filter) { digest in
            var tallies = Array(repeating: SessionTally(), count: count)
            for day in digest.sessions(filter, boundary: boundary).days {
                if let index = starts.firstIndex(of: day.day.startOfWeek(startingOn: firstWeekday)) {
                    tallies[index].count += day.tally.count
                    tallies[index].time += day.tally.time
                }
            }
            return StatisticResult(.record(zip(starts, tallies).map { StatisticField($0.description, $1.value) }))
        }
    }
}
