import PracticeLog
import StillpointStatistics

/// `longest_gap`: the most days in a row without a qualifying session between two days with one; a note gives
/// its dates. 0 days with fewer than two active days.
///
/// ```yaml
/// - id: longest_gap
///   parameters: {minimum_duration: 10m}
/// ```
public struct LongestGap: Statistic {
    public let id = "longest_gap"

    public init() {}

    public let description = StatisticDescription(
        name: "Longest gap",
        summary: "The most days in a row without a qualifying session, between two days with one (of equal gaps, "
            + "the most recent); a note gives its dates.",
        parameters: ParameterDescription.sessionFilter,
        examples: [
            StatisticExample(
                "practice on the 1st, 2nd, 6th and 8th: the three days from the 3rd to the 5th",
                sessions: ["2024-03-01", "2024-03-02", "2024-03-06", "2024-03-08"].map {
                    ExampleSession("\($0)T07:00:00Z", minutes: 20)
                },
                parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                expected: .quantity(3, .days)),
            StatisticExample(
                "an empty log has no gap",
                sessions: [],
                parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                expected: .quantity(0, .days)),
            StatisticExample(
                "a session's day is its own zone's: 01:00 on the 4th in Tokyo (the 3rd in UTC) leaves the 2nd and 3rd between",
                sessions: [.init("2024-03-01T12:00:00+09:00", minutes: 20, timeZone: "Asia/Tokyo"),
                           .init("2024-03-04T01:00:00+09:00", minutes: 20, timeZone: "Asia/Tokyo")],
                parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                expected: .quantity(2, .days)),
            StatisticExample(
                "a session shorter than minimum_duration is not practice: the 5-minute one does not end the gap",
                sessions: [.init("2024-03-01T07:00:00Z", minutes: 20), .init("2024-03-03T07:00:00Z", minutes: 5),
                           .init("2024-03-06T07:00:00Z", minutes: 20)],
                parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC", "minimum_duration": "10m"],
                expected: .quantity(4, .days)),
        ])

    public func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let filter = try SessionFilter(parameters)
        let boundary = try parameters.dayBoundary()
        return PreparedStatistic(reading: filter) { digest in
            // The distinct local days with practice, in order: a gap is the days strictly between two of them.
            let days = digest.sessions(filter, boundary: boundary).activeDays
            var longest: (days: Int, from: LocalDay, until: LocalDay)?
            for (before, after) in zip(days, days.dropFirst()) {
                let gap = before.distance(to: after) - 1
                if gap > 0, gap >= longest?.days ?? 0 {
                    longest = (gap, before.adding(days: 1), after.adding(days: -1))
                }
            }
            guard let longest else { return StatisticResult(.quantity(0, .days)) }
            return StatisticResult(.quantity(Double(longest.days), .days), notes: ["\(longest.from) through \(longest.until)"])
        }
    }
}
