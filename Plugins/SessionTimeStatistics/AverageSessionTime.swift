import StillpointStatistics

/// `average_session_time`: total time / session count of the qualifying sessions, with outliers handled as
/// `maximum_duration` and `outliers` say; no value on an empty log.
///
/// ```yaml
/// - id: average_session_time
///   parameters: {maximum_duration: 4h, outliers: cap}
/// ```
public struct AverageSessionTime: Statistic {
    public let id = "average_session_time"

    public init() {}

    public var description: StatisticDescription {
        StatisticDescription(
            name: "Average session",
            summary: "The total time of the qualifying sessions divided by their number; no value when there is none.",
            parameters: ParameterDescription.sessionTime,
            examples: [
                StatisticExample(
                    "three sessions of 10, 20 and 30 minutes",
                    sessions: [.init("2024-03-13T07:00:00Z", minutes: 10), .init("2024-03-14T07:00:00Z", minutes: 20),
                               .init("2024-03-15T07:00:00Z", minutes: 30, kind: "yoga")],
                    parameters: ["as_of": "2024-03-15T12:00:00Z"],
                    expected: .quantity(1_200, .seconds)),
                StatisticExample(
                    "an empty log has no average",
                    sessions: [],
                    parameters: ["as_of": "2024-03-15T12:00:00Z"],
                    expected: .none),
                StatisticExample(
                    "a timer left running for 87 hours counts as 4 hours",
                    sessions: [.init("2024-03-10T07:00:00Z", minutes: 20), .init("2024-03-11T07:00:00Z", minutes: 87 * 60)],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "maximum_duration": "4h"],
                    expected: .quantity((1_200 + 14_400) / 2, .seconds)),
                StatisticExample(
                    "the same timer, dropped",
                    sessions: [.init("2024-03-10T07:00:00Z", minutes: 20), .init("2024-03-11T07:00:00Z", minutes: 87 * 60)],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "maximum_duration": "4h", "outliers": "drop"],
                    expected: .quantity(1_200, .seconds)),
                StatisticExample(
                    "only yoga",
                    sessions: [.init("2024-03-13T07:00:00Z", minutes: 10, kind: "meditation"),
                               .init("2024-03-14T07:00:00Z", minutes: 60, kind: "yoga"),
                               .init("2024-03-15T07:00:00Z", minutes: 30, kind: "yoga")],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "kinds": ["yoga"]],
                    expected: .quantity(2_700, .seconds)),
            ])
    }

    public func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let filter = try SessionFilter(parameters)
        let limit = try DurationLimit(parameters)
        return PreparedStatistic(reading: filter) { digest in
            let durations = TreatedDurations(filter: filter, limit: limit, digest: digest)
            guard durations.count > 0 else { return StatisticResult(.none, notes: durations.notes) }
            return StatisticResult(.quantity(durations.total / Double(durations.count), .seconds), notes: durations.notes)
        }
    }
}
