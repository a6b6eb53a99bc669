import StillpointCore
import StillpointStatistics

/// `total_time`: the sum of the durations of the qualifying sessions, in SQL; 0 s on an empty log.
///
/// ```yaml
/// - id: total_time
///   as: yoga_time
///   parameters: {kinds: [yoga]}
/// ```
public struct TotalTime: Statistic {
    public let id = "total_time"

    public init() {}

    public var description: StatisticDescription {
        StatisticDescription(
            name: "Total time",
            summary: "The sum of the durations of the qualifying sessions.",
            parameters: [.kinds, .minimumDuration, .asOf],
            examples: [
                StatisticExample(
                    "a meditation and a yoga session",
                    sessions: [.init("2024-03-14T07:00:00Z", minutes: 20), .init("2024-03-15T07:00:00Z", minutes: 45, kind: "yoga")],
                    parameters: ["as_of": "2024-03-15T12:00:00Z"],
                    expected: .quantity(3_900, .seconds)),
                StatisticExample(
                    "an empty log has no time",
                    sessions: [],
                    parameters: ["as_of": "2024-03-15T12:00:00Z"],
                    expected: .quantity(0, .seconds)),
                StatisticExample(
                    "yoga only",
                    sessions: [.init("2024-03-14T07:00:00Z", minutes: 20), .init("2024-03-15T07:00:00Z", minutes: 45, kind: "yoga")],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "kinds": ["yoga"]],
                    expected: .quantity(2_700, .seconds)),
            ])
    }

    public func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let filter = try SessionFilter(parameters)
        let boundary = parameters.environment.dayBoundary
        return PreparedStatistic(reading: filter) { digest in
            StatisticResult(.quantity(digest.sessions(filter, boundary: boundary).totalTime, .seconds))
        }
    }
}
