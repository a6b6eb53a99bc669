import Dispatch
import Foundation
import StillpointCore

/// Runs an action on Ctrl-C (SIGINT) instead of dying at once, so that running work stops cleanly, and
/// remembers that it happened.
///
/// Keep it the only SIGINT handling while it lives: on Linux the dispatch source takes the signal through a
/// signalfd, and a `signal()` handler installed beside it races it for every Ctrl-C, each winning at times.
final class InterruptHandler {
    private let source: any DispatchSourceSignal
    private let interrupted = LockedState(false)

    init(_ action: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { [interrupted] in
            interrupted.withLock { $0 = true }
            action()
        }
        source.resume()
    }

    /// Whether Ctrl-C was pressed.
    var wasInterrupted: Bool { interrupted.withLock { $0 } }

    deinit {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
