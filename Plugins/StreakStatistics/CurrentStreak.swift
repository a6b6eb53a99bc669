import PracticeLog
import StillpointStatistics

/// `current_streak`: the days of the run of active days that is still alive today.
///
/// The run ends today, or yesterday while today has no session yet (or before yesterday when only rest
/// days lie between); otherwise the streak is 0. A note gives the run's dates.
///
/// ```yaml
/// - id: current_streak
///   parameters: {minimum_duration: 5m, day_starts_at: 4h, excluded_weekdays: [sunday]}
/// ```
public struct CurrentStreak: Statistic {
    public let id = "current_streak"

    public init() {}

    public let description = StatisticDescription(
        name: "Current streak",
        summary: "The days of the run of consecutive active days that ends today, or yesterday when today has "
            + "no session yet; 0 otherwise. Rest days inside the run count toward it.",
        parameters: StreakParameters.descriptions,
        examples: [
            StatisticExample(
                "an empty log has no streak",
                sessions: [],
                parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                expected: .quantity(0, .days)),
            StatisticExample(
                "five days ending yesterday: today has no session yet, so the streak is still alive",
                sessions: ["2024-03-10", "2024-03-11", "2024-03-12", "2024-03-13", "2024-03-14"].map {
                    ExampleSession("\($0)T12:00:00Z", minutes: 15)
                },
                parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                expected: .quantity(5, .days)),
            StatisticExample(
                "with days starting at 04:00, 01:00 on the 15th is still the 14th, whose session makes today active",
                sessions: [ExampleSession("2024-03-14T01:00:00Z", minutes: 10)],
                parameters: ["as_of": "2024-03-15T01:00:00Z", "time_zone": "UTC", "day_starts_at": "4h"],
                expected: .quantity(1, .days)),
            StatisticExample(
                "Thursday, Friday and Monday with the weekend as rest days: Saturday and Sunday count too",
                sessions: [
                    ExampleSession("2024-03-07T07:00:00+01:00", minutes: 20),
                    ExampleSession("2024-03-08T07:00:00+01:00", minutes: 20),
                    ExampleSession("2024-03-11T07:00:00+01:00", minutes: 20),
                ],
                parameters: ["as_of": "2024-03-11T20:00:00+01:00", "time_zone": "Europe/Berlin",
                             "excluded_weekdays": ["saturday", "sunday"]],
                expected: .quantity(5, .days)),
        ],
        presentation: .currentRunLength)

    public func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let streak = try StreakParameters(parameters)
        return PreparedStatistic(reading: streak.filter) { digest in
            let calculator = streak.calculator(digest)
            guard let run = calculator.currentRun else { return StatisticResult(.quantity(0, .days)) }
            let note = run.end < calculator.today ? "\(run.dates); today has no session yet" : run.dates
            return StatisticResult(.quantity(Double(run.length), .days), notes: [note])
        }
    }
}
