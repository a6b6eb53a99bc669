import PracticeLog
import StillpointStatistics

/// `totals_by_period`: the count and time of the qualifying sessions per month, quarter or year of the day
/// they started, `{"2024-01": {count, time}, "2024-02": ...}`, oldest first, from the first period with a
/// session through the last, periods without sessions included as zero so that a trend shows its gaps.
///
/// ```yaml
/// - id: totals_by_period
///   parameters: {period: quarter}
/// ```
public struct TotalsByPeriod: Statistic {
    public let id = "totals_by_period"

    public init() {}

    public var description: StatisticDescription {
        StatisticDescription(
            name: "Totals by period",
            summary: "The number and total time of the qualifying sessions per month, quarter or year of the day they started, oldest first, gaps included.",
            parameters: ParameterDescription.sessionFilter + [Self.period],
            examples: [
                StatisticExample(
                    "January and March, with an empty February between them",
                    sessions: [.init("2024-01-10T07:00:00Z", minutes: 20), .init("2024-01-31T23:30:00Z", minutes: 10),
                               .init("2024-03-15T07:00:00Z", minutes: 45, kind: "yoga")],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                    expected: .record([
                        StatisticField("2024-01", SessionTally(count: 2, time: 1_800).value),
                        StatisticField("2024-02", SessionTally().value),
                        StatisticField("2024-03", SessionTally(count: 1, time: 2_700).value),
                    ])),
                StatisticExample(
                    "an empty log has no period",
                    sessions: [],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                    expected: .record([])),
                StatisticExample(
                    "New Year's Eve in New York is still the old year's last quarter",
                    sessions: [.init("2023-12-31T22:00:00-05:00", minutes: 30), .init("2024-01-02T08:00:00-05:00", minutes: 15)],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "America/New_York", "period": "quarter"],
                    expected: .record([
                        StatisticField("2023-Q4", SessionTally(count: 1, time: 1_800).value),
                        StatisticField("2024-Q1", SessionTally(count: 1, time: 900).value),
                    ])),
                StatisticExample(
                    "per year",
                    sessions: [.init("2022-06-01T07:00:00Z", minutes: 20), .init("2024-02-29T07:00:00Z", minutes: 10)],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC", "period": "year"],
                    expected: .record([
                        StatisticField("2022", SessionTally(count: 1, time: 1_200).value),
                        StatisticField("2023", SessionTally().value),
                        StatisticField("2024", SessionTally(count: 1, time: 600).value),
                    ])),
            ],
            presentation: .byPeriod)
    }

    /// The `period` parameter.
    static let period = ParameterDescription(
        "period", type: "one of: month, quarter, year", default: "month",
        meaning: "The length of the periods: keys look like 2024-03, 2024-Q1 or 2024.")

    public func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let filter = try SessionFilter(parameters)
        let boundary = try parameters.dayBoundary()
        let period = try parameters.choice("period", as: TrendPeriod.self) ?? .month
        return PreparedStatistic(reading: filter) { digest in
            // Keyed by the period's first day.
            var tallies: [LocalDay: SessionTally] = [:]
            for day in digest.sessions(filter, boundary: boundary).days {
                tallies[period.start(of: day.day), default: SessionTally()].count += day.tally.count
                tallies[period.start(of: day.day), default: SessionTally()].time += day.tally.time
            }
            guard let first = tallies.keys.min(), let last = tallies.keys.max() else {
                return StatisticResult(.record([]))
            }
            var fields: [StatisticField] = []
            var start = first
            while start <= last {
                fields.append(StatisticField(period.key(of: start), (tallies[start] ?? SessionTally()).value))
                start = period.next(after: start)
            }
            return StatisticResult(.record(fields))
        }
    }
}
