import PracticeLog
import StillpointCore
import StillpointStatistics

/// `by_kind`: the count and time of the qualifying sessions per kind and per source, from two grouped SQL
/// fetches: `{kind: {yoga: {count, time}, ...}, source: {insight_timer: {count, time}, ...}}`, names in
/// alphabetical order.
///
/// ```yaml
/// - id: by_kind
///   parameters: {minimum_duration: 1m}
/// ```
public struct ByKind: Statistic {
    public let id = "by_kind"

    public init() {}

    public var description: StatisticDescription {
        StatisticDescription(
            name: "By kind and source",
            summary: "The number and total time of the qualifying sessions for each kind and for each source, in alphabetical order.",
            parameters: [.kinds, .minimumDuration, .asOf],
            examples: [
                StatisticExample(
                    "yoga and meditation from two apps",
                    sessions: [.init("2024-03-13T07:00:00Z", minutes: 20, kind: "meditation", source: "insight_timer"),
                               .init("2024-03-14T07:00:00Z", minutes: 10, kind: "meditation", source: "medito"),
                               .init("2024-03-15T07:00:00Z", minutes: 45, kind: "yoga", source: "insight_timer")],
                    parameters: ["as_of": "2024-03-15T12:00:00Z"],
                    expected: .record([
                        StatisticField("kind", .record([
                            StatisticField("meditation", SessionTally(count: 2, time: 1_800).value),
                            StatisticField("yoga", SessionTally(count: 1, time: 2_700).value),
                        ])),
                        StatisticField("source", .record([
                            StatisticField("insight_timer", SessionTally(count: 2, time: 3_900).value),
                            StatisticField("medito", SessionTally(count: 1, time: 600).value),
                        ])),
                    ])),
                StatisticExample(
                    "an empty log has no kind and no source",
                    sessions: [],
                    parameters: ["as_of": "2024-03-15T12:00:00Z"],
                    expected: .record([StatisticField("kind", .record([])), StatisticField("source", .record([]))])),
            ])
    }

    public func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let filter = try SessionFilter(parameters)
        let boundary = parameters.environment.dayBoundary
        return PreparedStatistic(reading: filter) { digest in
            let sessions = digest.sessions(filter, boundary: boundary)
            func record(_ tallies: [NamedTally]) -> StatisticValue {
                .record(tallies.map { StatisticField($0.name, $0.tally.value) })
            }
            return StatisticResult(.record([StatisticField("kind", record(sessions.kinds)),
                                            StatisticField("source", record(sessions.sources))]))
        }
    }

    /// `{name: {count, time}}` for each value of `attribute`, counted and summed in SQL.
}
