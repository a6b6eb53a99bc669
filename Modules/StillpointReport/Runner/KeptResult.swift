import Foundation
import PracticeLog
import StillpointManifest
import StillpointStatistics

/// A digest statistic's last result, with what it was computed from, so that a refresh can reuse it when none
/// of its inputs changed.
struct KeptResult: Sendable {
    /// The statistic's filters with `as_of` left out: they must be the same for the result to stand.
    let filters: [SessionFilter]
    /// The report's day when it was computed: "today" moves streaks and day counts.
    let day: Int
    let result: StatisticResult

    init?(_ entry: PreparedEntry, environment: ReportEnvironment, result: StatisticResult) {
        // Its own zone, day start or instant make its "today" one the report's day does not follow.
        guard let filters = entry.prepared.sessionFilters,
              Self.ownDayParameters.allSatisfy({ entry.parameters.values[$0] == nil }) else { return nil }
        self.filters = filters.map(Self.withoutAsOf)
        self.day = Self.day(environment)
        self.result = result
    }

    /// The kept result, if it still holds for `entry` in `environment` after `update`.
    func reusable(for entry: PreparedEntry, environment: ReportEnvironment, update: DigestUpdate) -> StatisticResult? {
        guard let current = entry.prepared.sessionFilters?.map(Self.withoutAsOf), current == filters,
              Self.day(environment) == day, update.latestStart <= environment.asOf.timeIntervalSince1970,
              !filters.contains(where: update.touches)
        else { return nil }
        return result
    }

    private static let ownDayParameters = ["time_zone", "day_starts_at", "as_of"]

    private static func withoutAsOf(_ filter: SessionFilter) -> SessionFilter {
        var filter = filter
        filter.asOf = .distantFuture
        return filter
    }

    private static func day(_ environment: ReportEnvironment) -> Int {
        DayBoundary(timeZone: environment.timeZone, dayStartsAt: environment.dayStartsAt).day(of: environment.asOf).dayNumber
    }
}
