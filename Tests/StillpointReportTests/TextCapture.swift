import StillpointCore
import StillpointReport

/// Collects what a live view or progress bar writes, for tests.
final class TextCapture: Sendable {
    private let buffer = LockedState("")

    var text: String { buffer.withLock { $0 } }

    /// An output that appends here.
    func output(isTerminal: Bool, colorEnabled: Bool = false, columns: Int? = nil, rows: Int? = nil) -> TerminalOutput {
        TerminalOutput(isTerminal: isTerminal, colorEnabled: colorEnabled, columns: columns, rows: rows) { [self] text in
            buffer.withLock { $0 += text }
        }
    }
}

/// A clock that tests move by hand.
final class ManualClock: Sendable {
    private let seconds = LockedState(0.0)

    var now: Double { seconds.withLock { $0 } }

    func advance(by interval: Double) {
        seconds.withLock { $0 += interval }
    }
}
