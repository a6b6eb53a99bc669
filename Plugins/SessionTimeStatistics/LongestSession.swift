import StillpointStatistics

/// `longest_session`: the longest duration of the qualifying sessions, with outliers handled as
/// `maximum_duration` and `outliers` say; no value on an empty log.
///
/// ```yaml
/// - id: longest_session
///   parameters: {maximum_duration: 4h, outliers: drop}
/// ```
public struct LongestSession: Statistic {
    public let id = "longest_session"

    public init() {}

    public var description: StatisticDescription {
        StatisticDescription(
            name: "Longest session",
            summary: "The longest duration of the qualifying sessions; no value when there is none.",
            parameters: ParameterDescription.sessionTime,
            examples: [
                StatisticExample(
                    "the longest of three",
                    sessions: [.init("2024-03-13T07:00:00Z", minutes: 10), .init("2024-03-14T07:00:00Z", minutes: 45, kind: "yoga"),
                               .init("2024-03-15T07:00:00Z", minutes: 20)],
                    parameters: ["as_of": "2024-03-15T12:00:00Z"],
                    expected: .quantity(2_700, .seconds)),
                StatisticExample(
                    "an empty log has no longest session",
                    sessions: [],
                    parameters: ["as_of": "2024-03-15T12:00:00Z"],
                    expected: .none),
                StatisticExample(
                    "a timer left running for 87 hours, capped at 4 hours",
                    sessions: [.init("2024-03-14T07:00:00Z", minutes: 45), .init("2024-03-15T07:00:00Z", minutes: 87 * 60)],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "maximum_duration": "4h"],
                    expected: .quantity(14_400, .seconds)),
                StatisticExample(
                    "the same timer, dropped",
                    sessions: [.init("2024-03-14T07:00:00Z", minutes: 45), .init("2024-03-15T07:00:00Z", minutes: 87 * 60)],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "maximum_duration": "4h", "outliers": "drop"],
                    expected: .quantity(2_700, .seconds)),
                StatisticExample(
                    "a session after as_of is ignored",
                    sessions: [.init("2024-03-14T07:00:00Z", minutes: 45), .init("2024-03-15T13:00:00Z", minutes: 90)],
                    parameters: ["as_of": "2024-03-15T12:00:00Z"],
                    expected: .quantity(2_700, .seconds)),
            ])
    }

    public func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let filter = try SessionFilter(parameters)
        let limit = try DurationLimit(parameters)
        return PreparedStatistic(reading: filter) { digest in
            let durations = TreatedDurations(filter: filter, limit: limit, digest: digest)
            return StatisticResult(durations.longest.map { .quantity($0, .seconds) } ?? .none, notes: durations.notes)
        }
    }
}
