import Foundation

/// How many sessions and how long in all: the `{count, time}` record of statistics that group sessions
/// (by kind, weekday, hour, period).
///
/// ```swift
/// var monday = SessionTally()
/// monday.add(1_200)
/// monday.value   // {count: 1, time: 1200 s}
/// ```
public struct SessionTally: Sendable, Hashable {
    public var count: Int
    /// The sum of the durations, in seconds.
    public var time: TimeInterval

    public init(count: Int = 0, time: TimeInterval = 0) {
        self.count = count
        self.time = time
    }

    /// Counts one more session of `duration` seconds.
    public mutating func add(_ duration: TimeInterval) {
        count += 1
        time += duration
    }

    /// The record `{count, time}`: the count in `.count`, the time in `.seconds`.
    public var value: StatisticValue {
        .record([StatisticField("count", .quantity(Double(count), .count)),
                 StatisticField("time", .quantity(time, .seconds))])
    }
}
