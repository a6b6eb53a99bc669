import Foundation
import PracticeLog
import StillpointCore
import StillpointStatistics

/// What the streak statistics read from their parameters: the qualifying sessions, the day rules, today,
/// and the rest days.
///
/// ```swift
/// let streak = try StreakParameters(parameters)
/// return PreparedStatistic { context in
///     .init(.quantity(Double(try streak.calculator(in: context).currentStreak), .days))
/// }
/// ```
struct StreakParameters: Sendable {
    var filter: SessionFilter
    var boundary: DayBoundary
    /// The day of `as_of` in the statistic's zone: sessions have their own zones, but "today" is the reader's.
    var today: LocalDay
    var excludedWeekdays: Set<Weekday>

    init(_ parameters: StatisticParameters) throws {
        filter = try SessionFilter(parameters)
        boundary = try parameters.dayBoundary()
        today = boundary.day(of: filter.asOf)
        excludedWeekdays = try parameters.weekdays("excluded_weekdays") ?? []
        // Every day a rest day leaves none to practise on, and a streak that never breaks.
        if excludedWeekdays.count == Weekday.allCases.count {
            throw ParameterError(statistic: parameters.statistic, parameter: "excluded_weekdays",
                                 location: parameters.values["excluded_weekdays"]?.location,
                                 message: "every weekday is excluded, which leaves no day to practise on; list at most six rest days, e.g. [saturday, sunday]")
        }
    }

    /// The runs of active days through today, from the report's digest.
    func calculator(_ digest: SessionDigest) -> StreakCalculator {
        StreakCalculator(activeDays: digest.sessions(filter, boundary: boundary).activeDays, today: today,
                         excludedWeekdays: excludedWeekdays)
    }

    /// The parameters every streak statistic takes.
    static let descriptions: [ParameterDescription] = ParameterDescription.sessionFilter + [.excludedWeekdays]
}
