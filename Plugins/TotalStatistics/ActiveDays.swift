import StillpointStatistics

/// `active_days`: the number of local days with at least one qualifying session, a session counting for the
/// day of its start (`day_starts_at` and the session's own zone, else the report's, apply).
///
/// ```yaml
/// - id: active_days
///   parameters: {day_starts_at: 4h}
/// ```
public struct ActiveDays: Statistic {
    public let id = "active_days"

    public init() {}

    public var description: StatisticDescription {
        StatisticDescription(
            name: "Active days",
            summary: "The number of days with at least one qualifying session, each session counting for the day it started.",
            parameters: ParameterDescription.sessionFilter,
            examples: [
                StatisticExample(
                    "three sessions on two days",
                    sessions: [.init("2024-03-14T07:00:00Z", minutes: 20), .init("2024-03-14T19:00:00Z", minutes: 10),
                               .init("2024-03-15T07:00:00Z", minutes: 30)],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                    expected: .quantity(2, .days)),
                StatisticExample(
                    "an empty log has no active day",
                    sessions: [],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                    expected: .quantity(0, .days)),
                StatisticExample(
                    "with days starting at 04:00, a session at 01:00 belongs to the day before",
                    sessions: [.init("2024-03-14T21:00:00Z", minutes: 20), .init("2024-03-15T01:00:00Z", minutes: 20)],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC", "day_starts_at": "4h"],
                    expected: .quantity(1, .days)),
                StatisticExample(
                    "23:00 in New York and 04:00 in London are two days",
                    sessions: [.init("2023-06-01T23:00:00-04:00", minutes: 20, timeZone: "America/New_York"),
                               .init("2023-06-02T04:00:00+01:00", minutes: 20, timeZone: "Europe/London")],
                    parameters: ["as_of": "2023-06-02T12:00:00Z", "time_zone": "UTC"],
                    expected: .quantity(2, .days)),
            ])
    }

    public func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let filter = try SessionFilter(parameters)
        let boundary = try parameters.dayBoundary()
        return PreparedStatistic(reading: filter) { digest in
            StatisticResult(.quantity(Double(digest.sessions(filter, boundary: boundary).days.count), .days))
        }
    }
}
