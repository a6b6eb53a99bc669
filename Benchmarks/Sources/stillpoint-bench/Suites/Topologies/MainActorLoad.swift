/// How long the main actor is busy during a window, measured with two 1 ms tickers.
///
/// A ticker sleeps until a deadline 1 ms ahead, notes how late it woke, and does it again. On the main actor, a
/// tick that falls due while the main actor runs another job waits for that job to end, so its lateness is
/// the rest of the job: summed over a window, lateness is the time the main actor was busy when a tick was due,
/// and the largest lateness is the longest stretch in which it could not have drawn a frame. Each tick is a
/// little late even when nothing holds it up; the median lateness of an idle calibration period (100 ms before
/// the window) is subtracted from every tick.
///
/// On two shared cores a tick is also late when no core is free to run it, although the main actor is idle.
/// A control ticker on an actor of its own, which nothing else uses, is late for that reason only. So:
///
/// - `main_actor_busy_ms` = main ticker's lateness − control ticker's lateness (never below 0): the main
///   actor's own work;
/// - `main_actor_late_ms` and `control_late_ms`: the two sums it comes from;
/// - `main_actor_longest_ms` and `control_longest_ms`: the largest lateness of a single tick.
///
/// Why tickers and not the main thread's CPU clock: on Linux, once an async `main` runs, main-actor jobs run on
/// whichever libdispatch worker thread drains the main queue, not on the process's main thread, so no one
/// thread's CPU time is the main actor's. What tickers miss: jobs shorter than a tick that fit between two
/// ticks. The work the topologies put on the main actor (absorbing a child's save, applying a save, merging)
/// comes in jobs of several milliseconds.
///
/// ```swift
/// let load = await MainActorLoad.start()      // includes the calibration
/// let start = ContinuousClock.now
/// try await work()
/// let report = await load.stop(window: start..<ContinuousClock.now)
/// ```
struct MainActorLoad: Sendable {
    static let period = Duration.milliseconds(1)
    static let calibration = Duration.milliseconds(100)

    struct Report: Sendable {
        var busyMilliseconds: Double
        var main: TickLog.Summary
        var control: TickLog.Summary
    }

    private let main: Ticker
    private let control: Ticker
    private let idle: Range<ContinuousClock.Instant>

    /// Starts both tickers and lets them run idle for ``calibration``.
    static func start() async -> MainActorLoad {
        let main = await Ticker.start(onMainActor: true)
        let control = await Ticker.start(onMainActor: false)
        let start = ContinuousClock.now
        try? await Task.sleep(for: calibration)
        return MainActorLoad(main: main, control: control, idle: start..<ContinuousClock.now)
    }

    /// Stops both tickers and reports on the ticks that woke within `window`.
    func stop(window: Range<ContinuousClock.Instant>) async -> Report {
        let mainLog = await main.stop()
        let controlLog = await control.stop()
        let main = mainLog.summary(in: window, beyond: mainLog.medianLateness(in: idle))
        let control = controlLog.summary(in: window, beyond: controlLog.medianLateness(in: idle))
        return Report(busyMilliseconds: max(0, main.lateMilliseconds - control.lateMilliseconds), main: main, control: control)
    }
}
