import Dispatch
import Foundation

/// Runs an action on Ctrl-C (SIGINT) instead of dying at once, so that running work stops cleanly.
final class InterruptHandler {
    private let source: any DispatchSourceSignal

    init(_ action: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler(handler: action)
        source.resume()
    }

    deinit {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }
}
