/// The wake-ups of a 1 ms ticker: when each tick woke and how late it was, and what a window of them says.
///
/// ```swift
/// var log = TickLog()
/// log.record(woke: now, deadline: deadline)
/// let idle = log.medianLateness(in: calibration)
/// let summary = log.summary(in: window, beyond: idle)
/// ```
struct TickLog: Sendable {
    /// What the ticks of a window say.
    struct Summary: Sendable {
        /// Sum over the window's ticks of their lateness beyond the idle lateness, in milliseconds.
        var lateMilliseconds: Double
        /// The largest lateness of a tick in the window, in milliseconds.
        var longestMilliseconds: Double
        /// The idle lateness subtracted from each tick, in milliseconds.
        var idleMilliseconds: Double
        var ticks: Int
    }

    private var ticks: [(woke: ContinuousClock.Instant, lateness: Duration)] = []

    init() {
        ticks.reserveCapacity(16_384)
    }

    mutating func record(woke: ContinuousClock.Instant, deadline: ContinuousClock.Instant) {
        ticks.append((woke, woke - deadline))
    }

    /// The median lateness of the ticks that woke in `range`: a tick's lateness when nothing holds it up.
    func medianLateness(in range: Range<ContinuousClock.Instant>) -> Duration {
        let lateness = ticks.filter { range.contains($0.woke) }.map(\.lateness).sorted()
        return lateness.isEmpty ? .zero : lateness[lateness.count / 2]
    }

    func summary(in window: Range<ContinuousClock.Instant>, beyond idle: Duration) -> Summary {
        let lateness = ticks.filter { window.contains($0.woke) }.map(\.lateness)
        let late = lateness.reduce(Duration.zero) { $0 + max(.zero, $1 - idle) }
        return Summary(lateMilliseconds: late.seconds * 1_000, longestMilliseconds: (lateness.max() ?? .zero).seconds * 1_000,
                       idleMilliseconds: idle.seconds * 1_000, ticks: lateness.count)
    }
}
