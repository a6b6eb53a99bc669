import Foundation
import PracticeLog
import StillpointCore
import StillpointStatistics

/// `days_since_last_session`: today minus the day of the last qualifying session; no value without one.
///
/// 0 when today has a session. Rest days play no part: the definition is calendar days, and a statistic
/// that says "3 days" on a Monday after a weekend off should mean three.
///
/// ```yaml
/// - id: days_since_last_session
///   parameters: {kinds: [meditation]}
/// ```
public struct DaysSinceLastSession: Statistic {
    public let id = "days_since_last_session"

    public init() {}

    public let description = StatisticDescription(
        name: "Days since the last session",
        summary: "Today minus the day of the last qualifying session: 0 when today has one; no value when there "
            + "is none.",
        parameters: ParameterDescription.sessionFilter,
        examples: [
            StatisticExample(
                "an empty log has no last session",
                sessions: [],
                parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                expected: .none),
            StatisticExample(
                "last session on Tuesday, report on Friday; tonight's session, after as_of, is ignored",
                sessions: [
                    ExampleSession("2024-03-11T08:00:00Z", minutes: 10),
                    ExampleSession("2024-03-12T08:00:00Z", minutes: 10),
                    ExampleSession("2024-03-15T19:00:00Z", minutes: 10),
                ],
                parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                expected: .quantity(3, .days)),
            StatisticExample(
                "a session lived in New York at 23:30 belongs to its own local day, the 14th, not to the 15th in UTC",
                sessions: [ExampleSession("2024-03-14T23:30:00-04:00", minutes: 10, timeZone: "America/New_York")],
                parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                expected: .quantity(1, .days)),
        ])

    public func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let filter = try SessionFilter(parameters)
        let boundary = try parameters.dayBoundary()
        let today = boundary.day(of: filter.asOf)
        return PreparedStatistic(reading: filter) { digest in
            // The latest day, not the day of the latest start: sessions keep their own zones.
            guard let lastDay = digest.sessions(filter, boundary: boundary).days.last?.day else {
                return StatisticResult(.none)
            }
            return StatisticResult(.quantity(Double(lastDay.distance(to: today)), .days),
                                   notes: ["last session on \(lastDay)"])
        }
    }
}
