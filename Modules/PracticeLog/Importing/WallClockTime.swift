import Foundation

/// The rule for times an export writes without a zone: they are the wall-clock times the person saw.
///
/// Without a zone given, a time is stored as its wall-clock reading taken as UTC, and the session carries
/// the zone `Etc/UTC`: every statistic then places it on the day and at the hour the person saw on their
/// clock, whatever zone the report runs in, and no flag is needed. With a zone given (`--time-zone`), the
/// time is the true instant a clock in that zone showed, and the session carries that zone.
///
/// ```swift
/// let wall = Date(timeIntervalSince1970: 1_710_054_000)          // "2024-03-10 07:00:00"
/// WallClockTime(zone: nil).start(wallClock: wall)                   // 07:00 "UTC", zone Etc/UTC
/// WallClockTime(zone: TimeZone(identifier: "Europe/Berlin")).start(wallClock: wall)   // 06:00 UTC
/// ```
struct WallClockTime: Sendable, Hashable {
    /// The zone the times are in, when the person gave it.
    var zone: TimeZone?

    /// The session's start for a wall-clock time read as UTC.
    func start(wallClock wall: Date) -> Date {
        guard let zone else { return wall }
        return TimestampParser.instant(wallClock: wall, in: zone)
    }

    /// The zone the sessions carry.
    var zoneIdentifier: String {
        zone?.identifier ?? TimestampParser.wallClockZone
    }

    /// The line an import prints about its times, once: `Insight Timer times carry no zone: read as the
    /// wall-clock times you saw (--time-zone Europe/Berlin to give their zone)`.
    func rule(format: String) -> String {
        if let zone {
            return "\(format) times carry no zone: read as wall-clock times in \(zone.identifier) (--time-zone)"
        }
        return "\(format) times carry no zone: read as the wall-clock times you saw "
            + "(--time-zone Europe/Berlin to give their zone)"
    }
}
