import Dispatch
import Foundation
import StillpointCore

/// Runs an action on Ctrl-C (SIGINT) instead of dying at once, so that running work stops cleanly, and
/// remembers that it happened; the command still ends within ``gracePeriod`` whatever it was waiting for, and a
/// second Ctrl-C ends it at once.
///
/// The action cancels what runs (a statement waiting on a lock another session holds is cancelled on the
/// server); a command that then has more to do asks ``wasInterrupted`` first, and sends no new statement that
/// could wait again. Should one wait all the same, the process exits with status 130 when the grace period is
/// over: no store is left half-written, since every write to it is one transaction that the store rolls back.
///
/// ```swift
/// let interrupt = InterruptHandler { operation.cancel() }
/// defer { withExtendedLifetime(interrupt) {} }
/// ```
///
/// Keep it the only SIGINT handling while it lives: on Linux the dispatch source takes the signal through a
/// signalfd, and a `signal()` handler installed beside it races it for every Ctrl-C, each winning at times.
final class InterruptHandler {
    /// How long a command has, after the first Ctrl-C, to stop cleanly before the process exits anyway.
    static let gracePeriod = DispatchTimeInterval.milliseconds(900)

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
                let again = interrupted.withLock { wasInterrupted in
                    defer { wasInterrupted = true }
                    return wasInterrupted
                }
                guard !again else { Self.exitNow("stopped by a second Ctrl-C") }
                DispatchQueue.global().asyncAfter(deadline: .now() + Self.gracePeriod) {
                    Self.exitNow("stopped by Ctrl-C: the store did not let go in time; what was not saved is rolled back")
                }
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

    /// Says why on standard error and ends the process with status 130 without running exit handlers, which
    /// could wait on the threads still blocked in the store.
    private static func exitNow(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        _exit(130)
    }
}
