import Foundation
import PracticeLog
import StillpointStatistics

/// `daily_activity`: the count and time of the qualifying sessions of each day with practice over the last
/// `days` days through today, `{"2024-03-14": {count, time}, ...}`, oldest first; days without practice are
/// left out. Reports written for people draw it as a calendar of active days. When those days hold no practice
/// but earlier ones do (a history exported after leaving an app), it gives the `days` days up to the last
/// session instead, so that the calendar shows the last year of practice rather than an empty one.
///
/// A session counts for the day of its start (`day_starts_at` and the session's own zone, else the
/// report's, apply), like `active_days`.
///
/// ```yaml
/// - id: daily_activity
///   parameters: {days: 91}
/// ```
public struct DailyActivity: Statistic {
    public let id = "daily_activity"
    /// 53 weeks: the year a calendar shows, with the week it starts in.
    public static let defaultDays = 371
    /// Ten years of days: a longer calendar is not one a person reads.
    public static let maximumDays = 3_660

    public init() {}

    public var description: StatisticDescription {
        StatisticDescription(
            name: "Practice calendar",
            summary: "The number and total time of the qualifying sessions of each day with practice in the last "
                + "`days` days through today (or, when those have none, the `days` days up to the last session), "
                + "oldest first, keyed by date.",
            parameters: [
                ParameterDescription("days", type: "whole number, 1 to \(Self.maximumDays)", default: String(Self.defaultDays),
                                     meaning: "How many days, through today, the calendar covers."),
            ] + ParameterDescription.sessionFilter,
            examples: [
                StatisticExample(
                    "two sessions on one day and one on the next",
                    sessions: [.init("2024-03-13T07:00:00Z", minutes: 20), .init("2024-03-13T19:00:00Z", minutes: 10),
                               .init("2024-03-14T07:00:00Z", minutes: 30, kind: "yoga")],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                    expected: .record([StatisticField("2024-03-13", SessionTally(count: 2, time: 1_800).value),
                                       StatisticField("2024-03-14", SessionTally(count: 1, time: 1_800).value)])),
                StatisticExample(
                    "a session before the last `days` days is left out",
                    sessions: [.init("2024-03-10T07:00:00Z", minutes: 20), .init("2024-03-15T07:00:00Z", minutes: 10)],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC", "days": 5],
                    expected: .record([StatisticField("2024-03-15", SessionTally(count: 1, time: 600).value)])),
                StatisticExample(
                    "a history that ended before the last `days` days gives the `days` days up to its last session",
                    sessions: [.init("2021-05-01T07:00:00Z", minutes: 20), .init("2021-05-03T07:00:00Z", minutes: 10),
                               .init("2021-05-05T07:00:00Z", minutes: 15)],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC", "days": 3],
                    expected: .record([StatisticField("2021-05-03", SessionTally(count: 1, time: 600).value),
                                       StatisticField("2021-05-05", SessionTally(count: 1, time: 900).value)])),
                StatisticExample(
                    "with days starting at 04:00, a session at 01:00 belongs to the day before",
                    sessions: [.init("2024-03-15T01:00:00Z", minutes: 20)],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC", "day_starts_at": "4h"],
                    expected: .record([StatisticField("2024-03-14", SessionTally(count: 1, time: 1_200).value)])),
                StatisticExample(
                    "an empty log has no active day",
                    sessions: [],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                    expected: .record([])),
            ],
            presentation: .calendar)
    }

    public func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let days = try parameters.integer("days") ?? Self.defaultDays
        guard (1...Self.maximumDays).contains(days) else {
            throw ParameterError(statistic: parameters.statistic, parameter: "days", location: parameters.values["days"]?.location,
                                 message: "expected a whole number from 1 to \(Self.maximumDays), got \(days)")
        }
        let filter = try SessionFilter(parameters)
        let boundary = try parameters.dayBoundary()
        let today = boundary.day(of: filter.asOf)
        return PreparedStatistic(reading: filter) { digest in
            let active = digest.sessions(filter, boundary: boundary).days
            // The window ends today, or on the last day with practice when that lies before the window.
            var end = today
            if let last = active.last?.day, last < today.adding(days: -(days - 1)) { end = last }
            let first = end.adding(days: -(days - 1))
            let shown = active.filter { $0.day >= first && $0.day <= end }
            return StatisticResult(.record(shown.map { StatisticField($0.day.description, $0.tally.value) }))
        }
    }
}
