import Foundation

extension ResponsivenessSuite {
    /// A main-actor task that sleeps one millisecond at a time and records the wall time between its wake-ups:
    /// a stand-in for a UI that must draw a frame every 16 ms. Nothing else of the workload runs on the main actor.
    ///
    /// ```swift
    /// let ticker = await Ticker.start()
    /// let idle = await ticker.takeGaps()      // the gaps so far, and start afresh
    /// try await work()
    /// let loaded = await ticker.stop()        // the gaps since takeGaps()
    /// ```
    @MainActor
    final class Ticker {
        private var gaps: [Double] = []
        private var running = true
        private var loop: Task<Void, Never>?
        /// The threads the ticks ran on. On Linux the main actor is the main dispatch queue, which, once the async
        /// `main` has suspended, libdispatch drains on its worker threads rather than on the process's first
        /// thread: so no thread's CPU clock measures "the main actor", and this set shows how many threads served it.
        private var threads: Set<UInt> = []

        private init() {
            gaps.reserveCapacity(1 << 16)
        }

        /// Starts ticking on the main actor.
        static func start() async -> Ticker {
            await MainActor.run {
                let ticker = Ticker()
                ticker.loop = Task { @MainActor in await ticker.tick() }
                return ticker
            }
        }

        private func tick() async {
            let clock = ContinuousClock()
            var last = clock.now
            while running {
                try? await Task.sleep(for: .milliseconds(1))
                let now = clock.now
                gaps.append((now - last).seconds * 1_000)
                threads.insert(UInt(pthread_self()))
                last = now
            }
        }

        /// The gaps recorded so far, in milliseconds, and how many threads the ticks ran on; recording starts afresh.
        func takeGaps() -> (gaps: [Double], threads: Int) {
            defer {
                gaps.removeAll(keepingCapacity: true)
                threads.removeAll(keepingCapacity: true)
            }
            return (gaps, threads.count)
        }

        /// Stops ticking and returns what ``takeGaps()`` returns.
        func stop() async -> (gaps: [Double], threads: Int) {
            running = false
            await loop?.value
            return takeGaps()
        }
    }

    /// The longest gap, the 99th percentile (nearest rank) and the count of `gaps`.
    struct GapSummary {
        let max: Double
        let p99: Double
        let count: Int

        init(_ gaps: [Double]) {
            let sorted = gaps.sorted()
            count = sorted.count
            max = sorted.last ?? .nan
            p99 = sorted.isEmpty ? .nan : sorted[Swift.min(sorted.count - 1, Int((0.99 * Double(sorted.count)).rounded(.up)) - 1)]
        }
    }
}
