import Foundation
import PracticeLog
import StillpointCore
import StillpointStatistics

/// Statistics for the manifest tests, so they do not depend on the built-in modules.
enum TestStatisticsModule: StatisticModule {
    static let statistics: [any Statistic] = [FakeCount(), ZoneEcho()]

    static func catalog() throws -> StatisticCatalog {
        try StatisticCatalog(modules: [TestStatisticsModule.self])
    }
}

/// The number of qualifying sessions, like `session_count`.
struct FakeCount: Statistic {
    let id = "fake_count"
    let description = StatisticDescription(
        name: "Fake count", summary: "The number of qualifying sessions.", parameters: ParameterDescription.sessionFilter,
        examples: [StatisticExample("one session", sessions: [.init("2024-03-14T08:00:00Z", minutes: 10)],
                                    parameters: ["as_of": "2024-03-15T00:00:00Z"], expected: .quantity(1, .count))])

    func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let filter = try SessionFilter(parameters)
        _ = try parameters.dayBoundary()
        return PreparedStatistic { context in
            StatisticResult(.quantity(Double(try context.count(for: filter.request())), .count))
        }
    }
}

/// The day rules and the instant a statistic sees: its own parameters, else the manifest's.
struct ZoneEcho: Statistic {
    let id = "zone_echo"
    let description = StatisticDescription(
        name: "Zone echo", summary: "The time zone, day start and as_of the statistic was prepared with.",
        parameters: [.timeZone, .dayStartsAt, .asOf],
        examples: [StatisticExample("its own zone", sessions: [], parameters: ["time_zone": "Asia/Tokyo", "as_of": "2024-03-15"],
                                    expected: ZoneEcho.value(zone: "Asia/Tokyo", dayStartsAt: 0, asOf: "2024-03-15T00:00:00Z"))])

    static func value(zone: String, dayStartsAt: TimeInterval, asOf: String) -> StatisticValue {
        .record([.init("time_zone", .text(zone)), .init("day_starts_at", .quantity(dayStartsAt, .seconds)), .init("as_of", .text(asOf))])
    }

    func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
        let boundary = try parameters.dayBoundary()
        let asOf = try parameters.asOf()
        let value = Self.value(zone: boundary.timeZone.identifier, dayStartsAt: boundary.dayStartsAt, asOf: asOf.formatted(.iso8601))
        return PreparedStatistic { _ in StatisticResult(value) }
    }
}
