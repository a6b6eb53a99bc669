import Foundation
import PracticeLog
import StillpointCore
import StillpointStatistics

/// `consistency`: Medito's consistency score, in percent, over the active days up to today.
///
/// With fewer than 30 days since the first active day it is the share of active days; after that a
/// moving average that forgives a missed day next to an active one (see ``ConsistencyScore``).
///
/// ```yaml
/// - id: consistency
///   parameters: {minimum_duration: 5m}
/// ```
public struct Consistency: Statistic {
    public let id = "consistency"

    public init() {}

    public let description = StatisticDescription(
        name: "Consistency",
        summary: "Medito's score: the share of active days since the first one while there are fewer than 30, "
            + "then a moving average where a day counts 1 when active, 0.5 next to an active day, else 0.",
        parameters: ParameterDescription.sessionFilter,
        examples: [
            StatisticExample(
                "an empty log scores 0",
                sessions: [],
                parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                expected: .quantity(0, .percent)),
            StatisticExample(
                "7 active days out of the 10 since the first one",
                sessions: ["2024-03-06", "2024-03-07", "2024-03-09", "2024-03-10", "2024-03-12", "2024-03-13",
                           "2024-03-15"].map { ExampleSession("\($0)T07:30:00+01:00", minutes: 10) },
                parameters: ["as_of": "2024-03-15T20:00:00+01:00", "time_zone": "Europe/Berlin"],
                expected: .quantity(70, .percent)),
            StatisticExample(
                "one session 40 days ago has faded to 1 %",
                sessions: [ExampleSession("2024-02-04T07:30:00Z", minutes: 10)],
                parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                expected: .quantity(1, .percent)),
        ])

    public func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let filter = try SessionFilter(parameters)
        let boundary = try parameters.dayBoundary()
        let today = boundary.day(of: filter.asOf)
        return PreparedStatistic(reading: filter) { digest in
            let days = digest.sessions(filter, boundary: boundary).activeDays
            return StatisticResult(.quantity(Double(ConsistencyScore(activeDays: days, today: today).percent), .percent))
        }
    }
}
