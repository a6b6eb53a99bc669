import Foundation
import PracticeLog

/// What the statistics of a report read: the sessions one ``SessionFilter`` admits, summed up per local day,
/// clock hour, kind and source, from the report's ``SessionDigest`` (no read of the store).
///
/// ```swift
/// let sessions = digest.sessions(filter, boundary: boundary)
/// sessions.count                      // 4,812
/// sessions.activeDays.last            // the latest day with a session
/// sessions.hours[7].count             // sessions that began between 07:00 and 08:00
/// ```
public struct SelectedSessions: Sendable, Hashable {
    public var count: Int
    /// The sum of the durations, in seconds.
    public var totalTime: TimeInterval
    /// The days with at least one session, in order.
    public var days: [DayTally]
    /// By local clock hour of the start, 0 through 23, in each session's own zone.
    public var hours: [SessionTally]
    /// By kind, in the store's order of the texts (byte by byte); sessions without a kind first, named "".
    public var kinds: [NamedTally]
    /// By source, in the same order.
    public var sources: [NamedTally]

    /// The days with at least one session, in order.
    public var activeDays: [LocalDay] { days.map(\.day) }
}
