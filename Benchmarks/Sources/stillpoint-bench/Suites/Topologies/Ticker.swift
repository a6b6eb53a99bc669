import Dispatch

/// A 1 ms ticker that records how late each tick wakes. On the main actor, its ticks are late while the main
/// actor runs other jobs (and while no core is free to run it). As the control, on a dispatch queue of its own
/// that nothing else uses, they are late only because no core (or the timer) was free, which tells contention
/// from main-actor work. See ``MainActorLoad`` for how the two are read.
///
/// The control's executor is a dispatch queue, like the main actor's on Linux (where libdispatch worker threads
/// drain the main queue), so that both tickers wait for a thread the same way.
actor Ticker {
    private let queueExecutor: QueueExecutor?
    private var log = TickLog()
    private var running = true
    private var loop: Task<Void, Never>?

    nonisolated var unownedExecutor: UnownedSerialExecutor {
        queueExecutor?.asUnownedSerialExecutor() ?? MainActor.sharedUnownedExecutor
    }

    private init(onMainActor: Bool) {
        queueExecutor = onMainActor ? nil : QueueExecutor()
    }

    /// Starts ticking on the main actor, or on the ticker's own queue.
    static func start(onMainActor: Bool) async -> Ticker {
        let ticker = Ticker(onMainActor: onMainActor)
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
