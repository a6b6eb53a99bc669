import Foundation

/// Decides which calendar day an instant belongs to: "the day of an instant" of docs/statistics.md.
///
/// The day is the local date, in the session's zone (or `timeZone` when the session has none),
/// of the local clock time minus `dayStartsAt`. With `dayStartsAt` = 4 h a session at 03:59
/// counts for the previous day; with -2 h a session at 22:00 counts for the next day.
///
/// The boundary stays at the same wall-clock time on days when the clocks change (a day that
/// starts at 04:00 starts at 04:00 local time after a spring-forward night too). This matches
/// "the local date of t − day_starts_at" everywhere except in the hours after a clock change,
/// where shifting the instant instead would move the boundary to 03:00 or 05:00.
///
/// ```swift
/// let boundary = DayBoundary(timeZone: TimeZone(identifier: "Europe/Paris")!, dayStartsAt: 4 * 3600)
/// boundary.day(of: someInstant)                                   // LocalDay
/// boundary.day(of: someInstant, timeZone: TimeZone(identifier: "Asia/Tokyo"))
/// ```
public struct DayBoundary: Sendable, Hashable {
    /// The report's zone, used for instants whose session has no zone of its own.
    public var timeZone: TimeZone
    /// How long after local midnight a day starts, in seconds; negative to start the evening before.
    public var dayStartsAt: TimeInterval

    /// A boundary at `dayStartsAt` seconds after local midnight in `timeZone`.
    ///
    /// ```swift
    /// DayBoundary(timeZone: .gmt)                          // days start at midnight UTC
    /// DayBoundary(timeZone: .gmt, dayStartsAt: -2 * 3600)  // days start at 22:00 the evening before
    /// ```
    public init(timeZone: TimeZone, dayStartsAt: TimeInterval = 0) {
        self.timeZone = timeZone
        self.dayStartsAt = dayStartsAt
    }

    /// The day `instant` belongs to, in `timeZone` when given, else in the boundary's zone.
    ///
    /// ```swift
    /// // 2026-05-18 03:59:59 local with days starting at 04:00:
    /// boundary.day(of: instant)   // 2026-05-17
    /// ```
    public func day(of instant: Date, timeZone: TimeZone? = nil) -> LocalDay {
        day(atLocalSeconds: localSeconds(of: instant, in: timeZone ?? self.timeZone))
    }

    /// The day of an instant given as seconds since 1970 on its local wall clock (see ``ZoneOffsets``).
    ///
    /// ```swift
    /// boundary.day(atLocalSeconds: offsets.localSeconds(of: start))
    /// ```
    public func day(atLocalSeconds seconds: TimeInterval) -> LocalDay {
        LocalDay(dayNumber: dayNumber(atLocalSeconds: seconds))
    }

    /// The number of ``day(atLocalSeconds:)``, without making the day.
    public func dayNumber(atLocalSeconds seconds: TimeInterval) -> Int {
        Self.dayNumber((seconds - dayStartsAt) / 86_400)
    }

    /// The instant `day` starts: its local midnight plus `dayStartsAt`, in the boundary's zone, at that
    /// wall-clock time also on a day the clocks change. The inverse of ``day(of:timeZone:)``.
    ///
    /// ```swift
    /// // Days starting at 04:00 in Berlin:
    /// boundary.start(of: LocalDay("2024-01-01")!)   // 2024-01-01T03:00:00Z
    /// ```
    public func start(of day: LocalDay) -> Date {
        TimestampParser.instant(wallClock: Date(timeIntervalSince1970: TimeInterval(day.dayNumber) * 86_400 + dayStartsAt),
                                in: timeZone)
    }

    /// The local clock hour of `instant`, 0 through 23; `dayStartsAt` plays no part.
    ///
    /// ```swift
    /// // 2023-06-01 23:00 in New York:
    /// boundary.localHour(of: instant, timeZone: TimeZone(identifier: "America/New_York"))   // 23
    /// ```
    public func localHour(of instant: Date, timeZone: TimeZone? = nil) -> Int {
        Self.localHour(atLocalSeconds: localSeconds(of: instant, in: timeZone ?? self.timeZone))
    }

    /// The clock hour, 0 through 23, of seconds since 1970 on a local wall clock (see ``ZoneOffsets``).
    public static func localHour(atLocalSeconds seconds: TimeInterval) -> Int {
        let secondsIntoDay = seconds - (seconds / 86_400).rounded(.down) * 86_400
        // min() guards against rounding pushing 86_399.9999 up to hour 24; max() and the finite check against
        // an instant so far out (or not a number) that the remainder means nothing.
        guard secondsIntoDay.isFinite else { return 0 }
        return min(23, max(0, Int(secondsIntoDay / 3600)))
    }

    /// The weekday of the day `instant` belongs to, so a session at 01:00 with days starting at
    /// 04:00 counts for the previous weekday, as it does for streaks.
    ///
    /// ```swift
    /// boundary.weekday(of: instant)   // .monday
    /// ```
    public func weekday(of instant: Date, timeZone: TimeZone? = nil) -> Weekday {
        day(of: instant, timeZone: timeZone).weekday
    }

    /// The whole day `days` falls in, clamped to ±10^9 days (±2.7 million years) and 0 for `nan`, so that an
    /// instant or boundary no session can have gives a day rather than a trap.
    static func dayNumber(_ days: Double) -> Int {
        guard !days.isNaN else { return 0 }
        return Int(min(max(days.rounded(.down), -1e9), 1e9))
    }

    /// Seconds since 1970-01-01 00:00 on the local wall clock, whose whole days are calendar days.
    private func localSeconds(of instant: Date, in zone: TimeZone) -> TimeInterval {
        // Zones have no offset for instants beyond any calendar; they are read in UTC.
        let seconds = instant.timeIntervalSince1970
        guard seconds.isFinite, abs(seconds) < 1e14 else { return seconds }
        return seconds + TimeInterval(zone.secondsFromGMT(for: instant))
    }
}
