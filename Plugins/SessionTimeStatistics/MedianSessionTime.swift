import StillpointStatistics

/// `median_session_time`: the middle duration of the qualifying sessions (the mean of the middle two for an
/// even number), with outliers handled as `maximum_duration` and `outliers` say; no value on an empty log.
///
/// ```yaml
/// - id: median_session_time
///   parameters: {maximum_duration: 4h, outliers: drop}
/// ```
public struct MedianSessionTime: Statistic {
    public let id = "median_session_time"

    public init() {}

    public var description: StatisticDescription {
        StatisticDescription(
            name: "Median session",
            summary: "The middle duration of the qualifying sessions, the mean of the middle two for an even number; no value when there is none.",
            parameters: ParameterDescription.sessionTime,
            examples: [
                StatisticExample(
                    "three sessions: the middle one",
                    sessions: [.init("2024-03-13T07:00:00Z", minutes: 60), .init("2024-03-14T07:00:00Z", minutes: 10),
                               .init("2024-03-15T07:00:00Z", minutes: 20)],
                    parameters: ["as_of": "2024-03-15T12:00:00Z"],
                    expected: .quantity(1_200, .seconds)),
                StatisticExample(
                    "four sessions: the mean of the middle two",
                    sessions: [.init("2024-03-12T07:00:00Z", minutes: 10), .init("2024-03-13T07:00:00Z", minutes: 20),
                               .init("2024-03-14T07:00:00Z", minutes: 30), .init("2024-03-15T07:00:00Z", minutes: 60)],
                    parameters: ["as_of": "2024-03-15T12:00:00Z"],
                    expected: .quantity(1_500, .seconds)),
                StatisticExample(
                    "an empty log has no median",
                    sessions: [],
                    parameters: ["as_of": "2024-03-15T12:00:00Z"],
                    expected: .none),
                StatisticExample(
                    "two timers left running, capped at 4 hours, move the median",
                    sessions: [.init("2024-03-12T07:00:00Z", minutes: 10), .init("2024-03-13T07:00:00Z", minutes: 20),
                               .init("2024-03-14T07:00:00Z", minutes: 87 * 60), .init("2024-03-15T07:00:00Z", minutes: 87 * 60)],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "maximum_duration": "4h"],
                    expected: .quantity((1_200 + 14_400) / 2, .seconds)),
                StatisticExample(
                    "a timer left running, dropped",
                    sessions: [.init("2024-03-13T07:00:00Z", minutes: 10), .init("2024-03-14T07:00:00Z", minutes: 20),
                               .init("2024-03-15T07:00:00Z", minutes: 87 * 60)],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "maximum_duration": "4h", "outliers": "drop"],
                    expected: .quantity(900, .seconds)),
            ])
    }

    public func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let filter = try SessionFilter(parameters)
        let limit = try DurationLimit(parameters)
        return PreparedStatistic(reading: filter) { digest in
            let durations = TreatedDurations(filter: filter, limit: limit, digest: digest)
            let value = durations.median.map { StatisticValue.quantity($0, .seconds) } ?? .none
            return StatisticResult(value, notes: durations.notes)
        }
    }
}
