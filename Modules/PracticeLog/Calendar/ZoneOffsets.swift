import Foundation
import StillpointCore

/// A zone's offsets from UTC, looked up once per stretch between two clock changes instead of once per instant:
/// the local wall clock of a million sessions costs a few dozen calls into the zone database, not a million.
///
/// Gives exactly what `TimeZone.secondsFromGMT(for:)` gives. Each lookup that misses asks the zone for the
/// offset and the next transition, and remembers the stretch in between; instants that come roughly in order,
/// as a store's rows do, almost always hit the stretch used last.
///
/// ```swift
/// var offsets = ZoneOffsets(TimeZone(identifier: "Europe/Berlin")!)
/// let local = offsets.localSeconds(of: session.start.timeIntervalSince1970)
/// boundary.day(atLocalSeconds: local)
/// ```
public struct ZoneOffsets: Sendable {
    public let timeZone: TimeZone

    /// A stretch `start ..< end` (seconds since 1970) over which the offset does not change.
    private struct Stretch: Sendable {
        var start: Double
        var end: Double
        var offset: Double
    }

    /// The longest stretch taken on the zone's word, in seconds.
    private static let longestStretch: Double = 366 * 86_400

    /// Sorted, not overlapping.
    private var stretches: [Stretch] = []
    private var lastUsed = 0

    public init(_ timeZone: TimeZone) {
        self.timeZone = timeZone
    }

    /// What this process has learned of each zone, by identifier: every report reads the same few zones over the
    /// same years, so that a report with no digest in memory need not ask the zone database again (a few dozen
    /// calls into ICU for ten years of one zone).
    private static let learned = LockedState<[String: (zone: TimeZone, stretches: [Stretch])]>([:])
    /// Stretches kept per zone at most: the years of real practice logs, not a damaged row's far-off instants.
    private static let largestKept = 1_024

    /// The offsets of the zone `identifier` with the stretches this process has learned of it already
    /// (``remember()`` adds to them); `nil` for a zone this machine does not know.
    ///
    /// ```swift
    /// var offsets = ZoneOffsets.shared(identifier: "Europe/Berlin")
    /// let local = offsets?.localSeconds(of: start)
    /// offsets?.remember()   // for the next report
    /// ```
    public static func shared(identifier: String) -> ZoneOffsets? {
        if let known = learned.withLock({ $0[identifier] }) {
            var offsets = ZoneOffsets(known.zone)
            offsets.stretches = known.stretches
            return offsets
        }
        return TimeZone(identifier: identifier).map(ZoneOffsets.init)
    }

    /// How many stretches these offsets know (for the tests of ``shared(identifier:)``).
    var knownStretches: Int { stretches.count }

    /// Keeps what these offsets have learned for the next ``shared(identifier:)`` of their zone.
    ///
    /// ```swift
    /// var offsets = ZoneOffsets(TimeZone(identifier: "Asia/Tokyo")!)
    /// for start in starts { days.insert(boundary.dayNumber(atLocalSeconds: offsets.localSeconds(of: start))) }
    /// offsets.remember()
    /// ```
    public func remember() {
        let identifier = timeZone.identifier
        guard stretches.count <= Self.largestKept else { return }
        Self.learned.withLock { learned in
            // Offsets made from the kept ones know at least as much; one made meanwhile from fewer does not replace them.
            if let known = learned[identifier], known.stretches.count >= stretches.count { return }
            learned[identifier] = (timeZone, stretches)
        }
    }

    /// Seconds since 1970-01-01 00:00 on the zone's wall clock at `seconds` since 1970 UTC; an instant beyond any
    /// calendar (or not a number) is read in UTC, as ``DayBoundary`` reads it.
    public mutating func localSeconds(of seconds: Double) -> Double {
        guard seconds.isFinite, abs(seconds) < 1e14 else { return seconds }
        return seconds + offset(at: seconds)
    }

    /// The offset from UTC in seconds at `seconds` since 1970.
    public mutating func offset(at seconds: Double) -> Double {
        if lastUsed < stretches.count, stretches[lastUsed].start <= seconds, seconds < stretches[lastUsed].end {
            return stretches[lastUsed].offset
        }
        // The first stretch that ends after `seconds`.
        var low = 0, high = stretches.count
        while low < high {
            let middle = (low + high) / 2
            if stretches[middle].end <= seconds { low = middle + 1 } else { high = middle }
        }
        if low < stretches.count, stretches[low].start <= seconds {
            lastUsed = low
            return stretches[low].offset
        }
        return learn(at: seconds, before: low)
    }

    /// Asks the zone about `seconds` and remembers the stretch from it to the next transition (or to the stretch
    /// already known after it), inserted at `index`.
    private mutating func learn(at seconds: Double, before index: Int) -> Double {
        let instant = Date(timeIntervalSince1970: seconds)
        let offset = Double(timeZone.secondsFromGMT(for: instant))
        var end = timeZone.nextDaylightSavingTimeTransition(after: instant)?.timeIntervalSince1970 ?? .infinity
        // At most a year, checked at its end: a change the zone does not report as a transition is found within it.
        end = min(end, seconds + Self.longestStretch)
        if index < stretches.count { end = min(end, stretches[index].start) }
        end = firstChange(from: seconds, before: end, offset: offset)
        if index < stretches.count, stretches[index].start == end, stretches[index].offset == offset {
            stretches[index].start = seconds
            lastUsed = index
        } else {
            stretches.insert(Stretch(start: seconds, end: end, offset: offset), at: index)
            lastUsed = index
        }
        return offset
    }

    /// `end`, or an earlier whole second where the offset already differs from `offset`: a change of offset that
    /// the zone does not report as a transition (a zone that moved its standard time) still ends the stretch.
    private func firstChange(from start: Double, before end: Double, offset: Double) -> Double {
        guard end.isFinite, end - 1 > start else { return end }
        func zoneOffset(at seconds: Double) -> Double {
            Double(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds)))
        }
        guard zoneOffset(at: end - 1) != offset else { return end }
        var low = start.rounded(.down) + 1, high = end - 1  // the offset differs at `high`
        while low < high {
            let middle = ((low + high) / 2).rounded(.down)
            if zoneOffset(at: middle) != offset { high = middle } else { low = middle + 1 }
        }
        return high
    }
}
