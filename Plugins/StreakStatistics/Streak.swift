import Foundation
import PracticeLog

/// A run of consecutive days, both ends included, that kept a streak alive.
///
/// ```swift
/// let streak = Streak(start: LocalDay("2024-03-11")!, end: LocalDay("2024-03-15")!)
/// streak.length   // 5
/// ```
public struct Streak: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The first day of the run, always an active day.
    public let start: LocalDay
    /// The last day of the run, always an active day.
    public let end: LocalDay

    /// A run from `start` through `end`; given the other way round, the earlier day is its start.
    public init(start: LocalDay, end: LocalDay) {
        self.start = min(start, end)
        self.end = max(start, end)
    }

    /// The number of days from `start` through `end`, rest days inside the run included.
    public var length: Int {
        end.dayNumber - start.dayNumber + 1
    }

    /// `start...end (length days)`, for test failures and logs.
    public var description: String {
        "\(start)...\(end) (\(length) days)"
    }
}
