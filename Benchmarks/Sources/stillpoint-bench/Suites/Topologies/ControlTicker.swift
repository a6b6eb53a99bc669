import Dispatch

/// The same 1 ms ticker as ``MainActorTicker``, on an actor of its own that nothing else uses: its ticks are late
/// only because no core was free (or the timer was), which tells contention from main-actor work.
///
/// Its executor is a dispatch queue, like the main actor's on Linux (where libdispatch worker threads drain the
/// main queue), so that both tickers wait for a thread the same way.
actor ControlTicker {
    private let executor = QueueExecutor()
    private var log = TickLog()
    private var running = true
    private var loop: Task<Void, Never>?

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Starts ticking on the ticker's own queue.
    static func start() async -> ControlTicker {
        let ticker = ControlTicker()
        await ticker.begin()
        return ticker
    }

    private func begin() {
        loop = Task { await self.tick() }
    }

    private func tick() async {
        let clock = ContinuousClock()
        while running {
            let deadline = clock.now + MainActorLoad.period
            try? await Task.sleep(until: deadline, clock: clock)
            log.record(woke: clock.now, deadline: deadline)
        }
    }

    /// Stops ticking and returns the ticks.
    func stop() async -> TickLog {
        running = false
        await loop?.value
        return log
    }

    /// A serial executor on a dispatch queue of its own.
    private final class QueueExecutor: SerialExecutor {
        private let queue = DispatchQueue(label: "stillpoint-bench.control-ticker")

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            let executor = asUnownedSerialExecutor()
            queue.async { job.runSynchronously(on: executor) }
        }

        func asUnownedSerialExecutor() -> UnownedSerialExecutor {
            UnownedSerialExecutor(ordinary: self)
        }
    }
}
