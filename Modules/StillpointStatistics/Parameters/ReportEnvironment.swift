import Foundation
import PracticeLog

/// The manifest's settings that every statistic shares unless its own parameters say otherwise.
public struct ReportEnvironment: Sendable, Hashable {
    /// The instant of the report: today is its day, and later sessions are ignored.
    public var asOf: Date
    /// The zone of the report's days.
    public var timeZone: TimeZone
    /// When a day begins after local midnight, in seconds.
    public var dayStartsAt: TimeInterval
    /// Only sessions starting at or after this instant count.
    public var from: Date?
    /// Only sessions starting before this instant count.
    public var until: Date?
    /// Only sessions of these kinds count; `nil` for every kind.
    public var kinds: [String]?

    public init(asOf: Date = Date(), timeZone: TimeZone = TimeZone(identifier: "UTC")!, dayStartsAt: TimeInterval = 0,  // swiftlint:disable:this force_unwrapping: a zone every system has
                from: Date? = nil, until: Date? = nil, kinds: [String]? = nil) {
        self.asOf = asOf
        self.timeZone = timeZone
        self.dayStartsAt = dayStartsAt
        self.from = from
        self.until = until
        self.kinds = kinds
    }
}

extension ReportEnvironment {
    /// The report's day rule: its zone and when its days start. Statistics that need no day of their own read
    /// the digest with it, so that they share the sums of those that do.
    ///
    /// ```swift
    /// digest.sessions(filter, boundary: parameters.environment.dayBoundary).count
    /// ```
    public var dayBoundary: DayBoundary {
        DayBoundary(timeZone: timeZone, dayStartsAt: dayStartsAt)
    }
}
