/// A 1 ms ticker on the main actor: its ticks are late while the main actor runs other jobs (and while no core
/// is free to run it). See ``MainActorLoad`` for how it is read.
@MainActor
final class MainActorTicker {
    private(set) var log = TickLog()
    private var running = true
    private var loop: Task<Void, Never>?

    private init() {}

    /// Starts ticking on the main actor.
    nonisolated static func start() async -> MainActorTicker {
        await MainActor.run {
            let ticker = MainActorTicker()
            ticker.loop = Task { @MainActor in await ticker.tick() }
            return ticker
        }
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
}
