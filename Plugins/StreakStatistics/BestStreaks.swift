import PracticeLog
import StillpointStatistics

/// `best_streaks`: the `count` longest runs of active days, listed oldest to newest.
///
/// Each run is a record `{start, end, length}` (length in days). Of runs of equal length the newer is
/// chosen first, so a fresh run can displace an old one of the same length.
///
/// ```yaml
/// - id: best_streaks
///   parameters: {count: 5}
/// ```
public struct BestStreaks: Statistic {
    public let id = "best_streaks"
    /// Three, as a podium: enough to compare, short enough to read at a glance.
    public static let defaultCount = 3

    public init() {}

    public let description = StatisticDescription(
        name: "Best streaks",
        summary: "The longest runs of consecutive active days (of equal runs, the newer first), listed oldest "
            + "to newest, each as {start, end, length}.",
        parameters: [
            ParameterDescription("count", type: "whole number, 1 or more", default: String(BestStreaks.defaultCount),
                                 meaning: "How many runs to list."),
        ] + StreakParameters.descriptions,
        examples: [
            StatisticExample(
                "an empty log has no runs",
                sessions: [],
                parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                expected: .list([])),
            StatisticExample(
                "runs of 2, 5, 3 and 2 days: the 5 and the 3, then the newer of the two 2-day runs",
                sessions: ["2024-03-01", "2024-03-02", "2024-03-04", "2024-03-05", "2024-03-06", "2024-03-07",
                           "2024-03-08", "2024-03-10", "2024-03-11", "2024-03-12", "2024-03-14", "2024-03-15"].map {
                    ExampleSession("\($0)T07:00:00+01:00", minutes: 30, kind: "yoga")
                },
                parameters: ["as_of": "2024-03-15T21:00:00+01:00", "time_zone": "Europe/Berlin"],
                expected: .list([
                    BestStreaks.example("2024-03-04", "2024-03-08"),
                    BestStreaks.example("2024-03-10", "2024-03-12"),
                    BestStreaks.example("2024-03-14", "2024-03-15"),
                ])),
            StatisticExample(
                "count 1 with two runs of 2 days: the newer one",
                sessions: ["2024-03-01", "2024-03-02", "2024-03-14", "2024-03-15"].map {
                    ExampleSession("\($0)T07:00:00Z", minutes: 30)
                },
                parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC", "count": 1],
                expected: .list([BestStreaks.example("2024-03-14", "2024-03-15")])),
        ],
        presentation: .runs)

    public func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let count = try parameters.integer("count") ?? Self.defaultCount
        guard count >= 1 else {
            throw ParameterError(statistic: parameters.statistic, parameter: "count",
                                 location: parameters.values["count"]?.location,
                                 message: "expected a whole number of 1 or more, got \(count)")
        }
        let streak = try StreakParameters(parameters)
        return PreparedStatistic(reading: streak.filter) { digest in
            let runs = streak.calculator(digest).bestStreaks(count: count)
            return StatisticResult(.list(runs.map(\.value)))
        }
    }

    /// The expected value of one run in an example; the dates are literals known to be valid.
    private static func example(_ start: String, _ end: String) -> StatisticValue {
        Streak(start: LocalDay(start)!, end: LocalDay(end)!).value  // swiftlint:disable:this force_unwrapping: literal dates of examples
    }
}
