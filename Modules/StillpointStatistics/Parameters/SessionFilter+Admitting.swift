import Foundation

extension SessionFilter {
    /// Whether a session of `start` (seconds since 1970) and `duration` passes the filter, kinds aside: the same
    /// test as ``predicate`` in the store, for a copy of the rows kept in memory.
    ///
    /// ```swift
    /// filter.admits(start: row.start, duration: row.duration)
    /// ```
    public func admits(start: Double, duration: Double) -> Bool {
        if let minimumDuration, minimumDuration > 0 {
            guard duration >= minimumDuration else { return false }
        } else {
            guard duration > 0 else { return false }
        }
        guard duration <= Self.longestSession, start >= Self.earliestStart.timeIntervalSince1970,
              start <= asOf.timeIntervalSince1970 else { return false }
        if let from, !(start >= from.timeIntervalSince1970) { return false }
        if let until, !(start < until.timeIntervalSince1970) { return false }
        return true
    }
}
