import Dispatch
import Foundation
import StillpointCore

/// Runs an action on Ctrl-C (SIGINT) instead of dying at once, so that running work stops cleanly, and
/// remembers that it happened.
///
/// Keep it the only SIGINT handling while it lives: on Linux the dispatch source takes the signal through a
/// signalfd, and a `signal()` handler installed beside it races it for every Ctrl-C, each winning at times.
final class InterruptHandler {
    private let sources: [any DispatchSourceSignal]
    private let signals: [Int32]
    private let interrupted = LockedState(false)

    /// Handles `signals` (Ctrl-C alone unless told; a long-running view adds `SIGTERM`).
    init(signals: [Int32] = [SIGINT], _ action: @escaping @Sendable () -> Void) {
        self.signals = signals
        sources = signals.map { number in
            signal(number, SIG_IGN)
            return DispatchSource.makeSignalSource(signal: number, queue: .global())
        }
        for source in sources {
            source.setEventHandler { [interrupted] in
                interrupted.withLock { $0 = true }
                action()
            }
            source.resume()
        }
    }

    /// Whether Ctrl-C (or another of the signals) came.
    var wasInterrupted: Bool { interrupted.withLock { $0 } }

    deinit {
        for source in sources { source.cancel() }
        for number in signals { signal(number, SIG_DFL) }
    }
}
