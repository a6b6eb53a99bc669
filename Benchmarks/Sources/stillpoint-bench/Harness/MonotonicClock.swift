import Foundation

/// The machine's `CLOCK_MONOTONIC`, in nanoseconds: one clock for every process on the machine, so that a time
/// read in a child process and a time read here can be subtracted (a `ContinuousClock.Instant` cannot cross a
/// process).
///
/// ```swift
/// let sent = MonotonicClock.nanoseconds()       // in the child, printed
/// let seen = MonotonicClock.nanoseconds()       // in the parent
/// let seconds = MonotonicClock.seconds(from: sent, to: seen)
/// ```
enum MonotonicClock {
    /// Nanoseconds since an unspecified moment shared by every process of the machine (its boot).
    static func nanoseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// The seconds from `start` to `end`, both ``nanoseconds()`` readings.
    static func seconds(from start: Int64, to end: Int64) -> Double {
        Double(end - start) / 1_000_000_000
    }
}
