import Foundation
import PracticeLog

/// The count, sum and maximum of some sessions' durations.
///
/// ```swift
/// let summary = DurationSummary(digest.durations(filter)[...])
/// summary.count, summary.total, summary.longest
/// ```
struct DurationSummary: Sendable, Hashable {
    var count: Int
    /// The sum of the durations, in seconds.
    var total: TimeInterval
    /// The longest duration, `nil` when there is no session.
    var longest: TimeInterval?

    static let empty = DurationSummary(count: 0, total: 0, longest: nil)

    init(count: Int, total: TimeInterval, longest: TimeInterval?) {
        self.count = count
        self.total = total
        self.longest = longest
    }

    /// The summary of durations in ascending order.
    init(_ sorted: ArraySlice<Double>) {
        self.init(count: sorted.count, total: sorted.reduce(0, +), longest: sorted.last)
    }
}
