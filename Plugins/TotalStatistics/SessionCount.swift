import StillpointStatistics

/// `session_count`: the number of qualifying sessions, counted in SQL.
///
/// ```yaml
/// - id: session_count
///   parameters: {kinds: [yoga], minimum_duration: 5m}
/// ```
public struct SessionCount: Statistic {
    public let id = "session_count"

    public init() {}

    public var description: StatisticDescription {
        StatisticDescription(
            name: "Sessions",
            summary: "The number of qualifying sessions.",
            parameters: [.kinds, .minimumDuration, .asOf],
            examples: [
                StatisticExample(
                    "three sessions, one of them after as_of",
                    sessions: [.init("2024-03-14T07:00:00Z", minutes: 20), .init("2024-03-15T07:00:00Z", minutes: 30, kind: "yoga"),
                               .init("2024-03-15T13:00:00Z", minutes: 10)],
                    parameters: ["as_of": "2024-03-15T12:00:00Z"],
                    expected: .quantity(2, .count)),
                StatisticExample(
                    "an empty log has no session",
                    sessions: [],
                    parameters: ["as_of": "2024-03-15T12:00:00Z"],
                    expected: .quantity(0, .count)),
                StatisticExample(
                    "sessions shorter than minimum_duration do not count",
                    sessions: [.init("2024-03-14T07:00:00Z", minutes: 2), .init("2024-03-15T07:00:00Z", minutes: 10)],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "minimum_duration": "5m"],
                    expected: .quantity(1, .count)),
            ])
    }

    public func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let filter = try SessionFilter(parameters)
        let boundary = parameters.environment.dayBoundary
        return PreparedStatistic(reading: filter) { digest in
            StatisticResult(.quantity(Double(digest.sessions(filter, boundary: boundary).count), .count))
        }
    }
}
