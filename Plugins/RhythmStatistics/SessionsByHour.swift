import PracticeLog
import StillpointStatistics

/// `sessions_by_hour`: the count and time of the qualifying sessions for each local start hour,
/// `{"0": {count, time}, ..., "23": {...}}`, always all 24, in the session's own zone, else the report's.
///
/// The hour is the wall clock's: `day_starts_at` plays no part, and on a fall-back night both 01:30s are
/// hour 1 while a spring-forward night has no session at hour 2.
///
/// ```yaml
/// - id: sessions_by_hour
///   parameters: {time_zone: Europe/Berlin}
/// ```
public struct SessionsByHour: Statistic {
    public let id = "sessions_by_hour"

    public init() {}

    public var description: StatisticDescription {
        StatisticDescription(
            name: "Sessions by hour",
            summary: "The number and total time of the qualifying sessions for each local hour of their start, 0 to 23.",
            parameters: [.kinds, .minimumDuration, .timeZone, .asOf],
            examples: [
                StatisticExample(
                    "two mornings at 7 and an evening at 21, in Berlin",
                    sessions: [.init("2024-03-13T07:10:00+01:00", minutes: 20), .init("2024-03-14T07:50:00+01:00", minutes: 10),
                               .init("2024-03-14T21:00:00+01:00", minutes: 45, kind: "yoga")],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "Europe/Berlin"],
                    expected: Self.day([7: SessionTally(count: 2, time: 1_800), 21: SessionTally(count: 1, time: 2_700)])),
                StatisticExample(
                    "an empty log has 24 empty hours",
                    sessions: [],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                    expected: Self.day([:])),
                StatisticExample(
                    "a session keeps the hour of its own zone",
                    sessions: [.init("2024-03-14T06:30:00+09:00", minutes: 20, timeZone: "Asia/Tokyo")],
                    parameters: ["as_of": "2024-03-15T12:00:00Z", "time_zone": "UTC"],
                    expected: Self.day([6: SessionTally(count: 1, time: 1_200)])),
            ],
            presentation: .byHour)
    }

    public func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let filter = try SessionFilter(parameters)
        // The report's day start, which plays no part in an hour, so that the hours come with the report's days.
        let boundary = DayBoundary(timeZone: try parameters.timeZone("time_zone") ?? parameters.environment.timeZone,
                                   dayStartsAt: parameters.environment.dayStartsAt)
        return PreparedStatistic(reading: filter) { digest in
            let tallies = digest.sessions(filter, boundary: boundary).hours
            return StatisticResult(.record(tallies.enumerated().map { StatisticField(String($0.offset), $0.element.value) }))
        }
    }

    /// All 24 hours, `"0"` to `"23"`; hours without sessions are zero.
    static func day(_ tallies: [Int: SessionTally]) -> StatisticValue {
        .record((0..<24).map { StatisticField(String($0), (tallies[$0] ?? SessionTally()).value) })
    }
}
