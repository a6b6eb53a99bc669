import Foundation
import PracticeLog
import StillpointStatistics

/// `weekly_time_trend`: the practice time of each of the last `weeks` whole weeks (12 by default), oldest
/// first, and how much it changes per week: the slope of the least-squares line through them.
///
/// The week in progress is left out, so that a Monday does not read as a fall.
///
/// ```yaml
/// - id: weekly_time_trend
///   parameters: {weeks: 8, week_starts_on: sunday}
/// ```
public struct WeeklyTimeTrend: Statistic {
    public let id = "weekly_time_trend"

    public init() {}

    /// The `weeks` parameter.
    static let weeks = ParameterDescription(
        "weeks", type: "whole number, 2 to 104", default: "12",
        meaning: "How many whole weeks before this one the trend covers.")

    public let description = StatisticDescription(
        name: "Weekly time trend",
        summary: "The practice time of each of the last whole weeks, oldest first, and its change per week "
            + "(the slope of the least-squares line through them).",
        parameters: ParameterDescription.sessionFilter + [.weekStartsOn, WeeklyTimeTrend.weeks],
        examples: [
            StatisticExample(
                "20, 40 and 60 minutes in three weeks: 20 minutes more each week; this week's session is not counted",
                sessions: [.init("2024-02-20T07:00:00Z", minutes: 20), .init("2024-02-27T07:00:00Z", minutes: 40),
                           .init("2024-03-05T07:00:00Z", minutes: 60), .init("2024-03-12T07:00:00Z", minutes: 90)],
                parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC", "weeks": "3"],
                expected: WeeklyTimeTrend.value(change: 1_200, weeks: [("2024-02-19", 1_200), ("2024-02-26", 2_400),
                                                                       ("2024-03-04", 3_600)])),
            StatisticExample(
                "an empty log has no change",
                sessions: [],
                parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC", "weeks": "2"],
                expected: WeeklyTimeTrend.value(change: 0, weeks: [("2024-02-26", 0), ("2024-03-04", 0)])),
            StatisticExample(
                "weeks starting on Sunday put Saturday's hour and Sunday's quarter in two weeks: 45 minutes less",
                sessions: [.init("2024-03-02T07:00:00Z", minutes: 60), .init("2024-03-03T07:00:00Z", minutes: 15)],
                parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC", "weeks": "2", "week_starts_on": "sunday"],
                expected: WeeklyTimeTrend.value(change: -2_700, weeks: [("2024-02-25", 3_600), ("2024-03-03", 900)])),
        ])

    /// `{change_per_week, weeks: {first day: time, ...}}`.
    static func value(change: TimeInterval, weeks: [(String, TimeInterval)]) -> StatisticValue {
        .record([
            StatisticField("change_per_week", .quantity(change, .seconds)),
            StatisticField("weeks", .record(weeks.map { StatisticField($0.0, .quantity($0.1, .seconds)) })),
        ])
    }

    public func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let filter = try SessionFilter(parameters)
        let boundary = try parameters.dayBoundary()
        let firstWeekday = try parameters.weekday("week_starts_on") ?? .monday
        let count = try parameters.integer("weeks") ?? 12
        guard (2...104).contains(count) else {
            throw ParameterError(statistic: parameters.statistic, parameter: "weeks", location: parameters.values["weeks"]?.location,
                                 message: "expected a number of weeks from 2 to 104, got \(count)")
        }
        let thisWeek = boundary.day(of: filter.asOf).startOfWeek(startingOn: firstWeekday)
        let starts = (1...count).reversed().map { thisWeek.adding(days: -7 * $0) }
        return PreparedStatistic(reading: filter) { digest in
            var totals = [TimeInterval](repeating: 0, count: count)
            for day in digest.sessions(filter, boundary: boundary).days {
                if let index = starts.firstIndex(of: day.day.startOfWeek(startingOn: firstWeekday)) { totals[index] += day.tally.time }
            }
            let weeks = zip(starts, totals).map { ($0.0.description, $0.1) }
            return StatisticResult(Self.value(change: Self.slope(totals), weeks: weeks))
        }
    }

    /// The slope of the least-squares line through `totals` at 0, 1, 2, ...: the change per step.
    static func slope(_ totals: [TimeInterval]) -> TimeInterval {
        let count = Double(totals.count)
        guard count >= 2 else { return 0 }
        let meanX = (count - 1) / 2
        let meanY = totals.reduce(0, +) / count
        var numerator = 0.0, denominator = 0.0
        for (index, total) in totals.enumerated() {
            let x = Double(index) - meanX
            numerator += x * (total - meanY)
            denominator += x * x
        }
        return numerator / denominator
    }
}
