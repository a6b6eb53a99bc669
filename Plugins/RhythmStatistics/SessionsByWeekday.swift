import PracticeLog
import StillpointStatistics

/// `sessions_by_weekday`: the count and time of the qualifying sessions for each weekday of their start's
/// local day, `{monday: {count, time}, ..., sunday: {...}}`, always all seven, in the order of a week that
/// starts on `week_starts_on`.
///
/// The weekday is that of the session's day, so `day_starts_at` applies as it does for streaks: with days
/// starting at 04:00, a session at 01:00 on a Tuesday counts for Monday.
///
/// ```yaml
/// - id: sessions_by_weekday
///   parameters: {week_starts_on: sunday}
/// ```
public struct SessionsByWeekday: Statistic {
    public let id = "sessions_by_weekday"

    public init() {}

    public var description: StatisticDescription {
        StatisticDescription(
            name: "Sessions by weekday",
            summary: "The number and total time of the qualifying sessions for each weekday of the day they started, all seven named.",
            parameters: ParameterDescription.sessionFilter + [.weekStartsOn],
            examples: [
                StatisticExample(
                    "two Mondays and a Friday",
                    sessions: [.init("2024-03-04T07:00:00Z", minutes: 20), .init("2024-03-11T07:00:00Z", minutes: 10),
                               .init("2024-03-15T07:00:00Z", minutes: 45, kind: "yoga")],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                    expected: Self.week([.monday: SessionTally(count: 2, time: 1_800),
                                         .friday: SessionTally(count: 1, time: 2_700)])),
                StatisticExample(
                    "an empty log has seven empty days",
                    sessions: [],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                    expected: Self.week([:])),
                StatisticExample(
                    "Saturday 23:30 in New York is Sunday in UTC, and Saturday for the session",
                    sessions: [.init("2024-03-16T23:30:00-04:00", minutes: 20, timeZone: "America/New_York")],
                    parameters: ["as_of": "2024-03-18T12:00:00Z", "time_zone": "UTC", "week_starts_on": "sunday"],
                    expected: Self.week([.saturday: SessionTally(count: 1, time: 1_200)], startingOn: .sunday)),
            ],
            presentation: .byWeekday)
    }

    public func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let filter = try SessionFilter(parameters)
        let boundary = try parameters.dayBoundary()
        let firstWeekday = try parameters.weekday("week_starts_on") ?? .monday
        return PreparedStatistic(reading: filter) { digest in
            var tallies: [Weekday: SessionTally] = [:]
            for day in digest.sessions(filter, boundary: boundary).days {
                tallies[day.day.weekday, default: SessionTally()].count += day.tally.count
                tallies[day.day.weekday, default: SessionTally()].time += day.tally.time
            }
            return StatisticResult(Self.week(tallies, startingOn: firstWeekday))
        }
    }

    /// All seven days, named, in the order of a week starting on `firstWeekday`; days without sessions are zero.
    static func week(_ tallies: [Weekday: SessionTally], startingOn firstWeekday: Weekday = .monday) -> StatisticValue {
        .record(Weekday.week(startingOn: firstWeekday).map { day in
            StatisticField(day.rawValue, (tallies[day] ?? SessionTally()).value)
        })
    }
}
