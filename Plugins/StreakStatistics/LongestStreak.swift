import PracticeLog
import StillpointStatistics

/// `longest_streak`: the days of the longest run of active days in the whole history, through today.
///
/// Of runs of equal length the most recent wins; a note gives its dates. It is recomputed from the
/// sessions every time, never stored, so deleting a session can shorten it.
///
/// ```yaml
/// - id: longest_streak
///   parameters: {kinds: [yoga]}
/// ```
public struct LongestStreak: Statistic {
    public let id = "longest_streak"

    public init() {}

    public let description = StatisticDescription(
        name: "Longest streak",
        summary: "The days of the longest run of consecutive active days (of equal runs, the most recent); "
            + "a note gives its dates.",
        parameters: StreakParameters.descriptions,
        examples: [
            StatisticExample(
                "an empty log has no streak",
                sessions: [],
                parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                expected: .quantity(0, .days)),
            StatisticExample(
                "days 0, 1, 2, 5 to 9, 12 and 13 before today: the five days from the 6th to the 10th",
                sessions: ["2024-03-02", "2024-03-03", "2024-03-06", "2024-03-07", "2024-03-08", "2024-03-09",
                           "2024-03-10", "2024-03-13", "2024-03-14", "2024-03-15"].map {
                    ExampleSession("\($0)T08:00:00Z", minutes: 10)
                },
                parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                expected: .quantity(5, .days)),
            StatisticExample(
                "sessions shorter than minimum_duration do not count: the 3-minute one breaks the run",
                sessions: [
                    ExampleSession("2024-03-12T18:00:00-04:00", minutes: 20, kind: "yoga"),
                    ExampleSession("2024-03-13T18:00:00-04:00", minutes: 3, kind: "yoga"),
                    ExampleSession("2024-03-14T18:00:00-04:00", minutes: 20, kind: "yoga"),
                ],
                parameters: ["as_of": "2024-03-15T12:00:00-04:00", "time_zone": "America/New_York",
                             "minimum_duration": "5m"],
                expected: .quantity(1, .days)),
        ],
        presentation: .runLength)

    public func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let streak = try StreakParameters(parameters)
        return PreparedStatistic(reading: streak.filter) { digest in
            guard let run = streak.calculator(digest).longestStreak else {
                return StatisticResult(.quantity(0, .days))
            }
            return StatisticResult(.quantity(Double(run.length), .days), notes: [run.dates])
        }
    }
}
