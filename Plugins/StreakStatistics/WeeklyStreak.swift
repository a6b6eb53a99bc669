import PracticeLog
import StillpointStatistics

/// `weekly_streak`: the consecutive calendar weeks, up to this one, with at least one active day.
///
/// This week does not break the streak while it is in progress: until it has a session, the count runs
/// back from last week. Weeks start on `week_starts_on`.
///
/// ```yaml
/// - id: weekly_streak
///   parameters: {week_starts_on: sunday}
/// ```
public struct WeeklyStreak: Statistic {
    public let id = "weekly_streak"

    public init() {}

    public let description = StatisticDescription(
        name: "Weekly streak",
        summary: "The consecutive calendar weeks with at least one active day, up to this week, which does "
            + "not break the streak while it is in progress.",
        parameters: ParameterDescription.sessionFilter + [
            .weekStartsOn,
            // Taken so that one parameter block fits every streak statistic; a week is active on any
            // active day, and a session on a rest day is an active day, so rest days cannot change a week.
            ParameterDescription(
                "excluded_weekdays", type: "list of weekdays", default: "none",
                meaning: "Accepted like every streak statistic's, with no effect here: one active day, rest day "
                    + "or not, makes a week active."),
        ],
        examples: [
            StatisticExample(
                "an empty log has no weekly streak",
                sessions: [],
                parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                expected: .quantity(0, .weeks)),
            StatisticExample(
                "one session in each of the three weeks before this one, none yet this week (Friday)",
                sessions: ["2024-02-21", "2024-02-28", "2024-03-09"].map {
                    ExampleSession("\($0)T18:00:00Z", minutes: 45, kind: "yoga")
                },
                parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                expected: .quantity(3, .weeks)),
            StatisticExample(
                "Saturday the 2nd and Sunday the 10th lie in consecutive weeks that start on Monday",
                sessions: ["2024-03-02", "2024-03-10"].map { ExampleSession("\($0)T14:00:00Z", minutes: 20) },
                parameters: ["as_of": "2024-03-15T12:00:00-04:00", "time_zone": "America/New_York",
                             "week_starts_on": "monday"],
                expected: .quantity(2, .weeks)),
            StatisticExample(
                "the same sessions with weeks starting on Sunday leave the week of the 3rd empty",
                sessions: ["2024-03-02", "2024-03-10"].map { ExampleSession("\($0)T14:00:00Z", minutes: 20) },
                parameters: ["as_of": "2024-03-15T12:00:00-04:00", "time_zone": "America/New_York",
                             "week_starts_on": "sunday"],
                expected: .quantity(1, .weeks)),
        ])

    public func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let streak = try StreakParameters(parameters)
        let firstWeekday = try parameters.weekday("week_starts_on") ?? .monday
        return PreparedStatistic(reading: streak.filter) { digest in
            let weeks = streak.calculator(digest).weeklyStreak(weekStartsOn: firstWeekday)
            return StatisticResult(.quantity(Double(weeks), .weeks))
        }
    }
}
