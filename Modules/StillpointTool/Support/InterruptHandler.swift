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
/// Handlers may nest or follow one another (a practitioner's lookup, then the report): the newest one alive gets
/// the signal. Each signal has one dispatch source for the life of the process, made by the first handler of it,
/// because on Linux a second source made after `signal()` was called again never hears the signal; with no
/// handler alive, the signal ends the process with status 130, as it would by default.
final class InterruptHandler: Sendable {
    /// How long a command has, after the first Ctrl-C, to stop cleanly before the process exits anyway.
    static let gracePeriod = DispatchTimeInterval.milliseconds(900)

    /// The process's sources, by signal, and the handlers alive, oldest first.
    private struct Registry {
        var sources: [Int32: any DispatchSourceSignal] = [:]
        var handlers: [InterruptHandler] = []
    }

    private static let registry = LockedState(Registry())

    private let signals: [Int32]
    private let action: @Sendable () -> Void
    private let interrupted = LockedState(false)

    /// Handles `signals` (Ctrl-C alone unless told; a long-running view adds `SIGTERM`).
    init(signals: [Int32] = [SIGINT], _ action: @escaping @Sendable () -> Void) {
        self.signals = signals
        self.action = action
        Self.registry.withLock { registry in
            for number in signals where registry.sources[number] == nil {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler { InterruptHandler.deliver(number) }
                source.resume()
                registry.sources[number] = source
            }
            registry.handlers.append(self)
        }
    }

    /// Whether Ctrl-C (or another of the signals) came.
    var wasInterrupted: Bool { interrupted.withLock { $0 } }

    deinit {
        let this = ObjectIdentifier(self)
        Self.registry.withLock { $0.handlers.removeAll { ObjectIdentifier($0) == this } }
    }

    /// Hands signal `number` to the newest handler of it, or ends the process when there is none.
    private static func deliver(_ number: Int32) {
        guard let handler = registry.withLock({ $0.handlers.last { $0.signals.contains(number) } }) else {
            exitNow(number == SIGINT ? "stopped by Ctrl-C" : "stopped by signal \(number)")
        }
        handler.handle()
    }

    private func handle() {
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

    /// Says why on standard error and ends the process with status 130 without running exit handlers, which
    /// could wait on the threads still blocked in the store.
    private static func exitNow(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        _exit(130)
    }
}
