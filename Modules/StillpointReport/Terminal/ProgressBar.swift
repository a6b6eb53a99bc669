import StillpointCore
import Foundation

/// Progress of an import or an export: the count so far, the total when known, and the rate.
///
/// On a terminal it redraws one line in place (at most every `redrawInterval` seconds); elsewhere it writes
/// a plain line every `plainInterval` seconds and one when it finishes, so logs stay short. It is safe to
/// update from any thread.
///
/// ```swift
/// let bar = ProgressBar("Importing", total: 29_000, output: .standardError())
/// bar.update(completed: 12_345)   // Importing  [██████████░░░░░░░░░░░░░░]  42 %  12,345 / 29,000 rows  3,210 rows/s
/// bar.finish()                    // Importing  29,000 rows in 9.0 s, 3,222 rows/s
/// ```
public final class ProgressBar: Sendable {
    public let label: String
    /// What is counted, plural: `rows`, `sessions`.
    public let unit: String
    public let output: TerminalOutput
    private let now: @Sendable () -> Double
    private let redrawInterval: Double
    private let plainInterval: Double
    private let state: LockedState<State>

    private struct State {
        var completed = 0
        var total: Int?
        var started: Double
        var lastWrite: Double?
        var finished = false
    }

    /// A bar that starts counting now.
    ///
    /// - Parameters:
    ///   - now: seconds on a monotonic clock; tests pass a fake one.
    public init(_ label: String, total: Int? = nil, unit: String = "rows", output: TerminalOutput,
                redrawInterval: Double = 0.1, plainInterval: Double = 5,
                now: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }) {
        self.label = label
        self.unit = unit
        self.output = output
        self.now = now
        self.redrawInterval = redrawInterval
        self.plainInterval = plainInterval
        state = LockedState(State(total: total, started: now()))
    }

    /// Counts `count` more.
    public func advance(by count: Int = 1) {
        report { $0.completed += count }
    }

    /// Sets the count so far, and the total when it became known.
    public func update(completed: Int, total: Int? = nil) {
        report { state in
            state.completed = completed
            if let total { state.total = total }
        }
    }

    /// Writes the final line: the count, the time it took and the average rate. Later updates are ignored.
    public func finish() {
        state.withLock { state in
            guard !state.finished else { return }
            state.finished = true
            let elapsed = max(0, now() - state.started)
            let rate = elapsed > 0 ? Double(state.completed) / elapsed : nil
            var text = label + "  " + Self.formatCount(state.completed) + " " + unit(state.completed) + " in " + Self.formatElapsed(elapsed)
            if let rate { text += ", " + Self.formatRate(rate, unit: unit) }
            output.write(output.isTerminal ? "\r" + ANSI.clearLine + text + "\n" : text + "\n")
        }
    }

    /// The unit after a count: `1 row`, `2 rows` (a plural unit ending in "s" loses it for one).
    private func unit(_ count: Int) -> String {
        count == 1 && unit.hasSuffix("s") ? String(unit.dropLast()) : unit
    }

    private func report(_ change: (inout State) -> Void) {
        state.withLock { state in
            guard !state.finished else { return }
            change(&state)
            let time = now()
            if let last = state.lastWrite, time - last < (output.isTerminal ? redrawInterval : plainInterval) { return }
            // Plain output starts with its first line after one interval: short imports print only the last.
            if state.lastWrite == nil, !output.isTerminal, time - state.started < plainInterval { return }
            state.lastWrite = time
            let text = line(state, at: time)
            output.write(output.isTerminal ? "\r" + ANSI.clearLine + text : text + "\n")
        }
    }

    /// `Importing  [████░░░░]  42 %  12,345 / 29,000 rows  3,210 rows/s`; the bar only on a terminal, and
    /// only with a total.
    private func line(_ state: State, at time: Double) -> String {
        let elapsed = time - state.started
        var parts = [label]
        if let total = state.total, total > 0 {
            let fraction = min(1, max(0, Double(state.completed) / Double(total)))
            if output.isTerminal {
                let width = 24
                let filled = Int((fraction * Double(width)).rounded(.down))  // swiftlint:disable:this trapping_conversion: a fraction in 0...1
                let bar = ANSI.styled(String(repeating: "█", count: filled), .green, enabled: output.colorEnabled)
                    + ANSI.styled(String(repeating: "░", count: width - filled), .dim, enabled: output.colorEnabled)
                parts.append("[" + bar + "]")
            }
            parts.append(String(Int((fraction * 100).rounded(.down))) + " %")  // swiftlint:disable:this trapping_conversion: a fraction in 0...1
            parts.append(Self.formatCount(state.completed) + " / " + Self.formatCount(total) + " " + unit(total))
        } else {
            parts.append(Self.formatCount(state.completed) + " " + unit(state.completed))
        }
        if elapsed > 0 {
            parts.append(Self.formatRate(Double(state.completed) / elapsed, unit: unit))
        }
        return parts.joined(separator: "  ")
    }

    // MARK: Formatting

    /// A rate as it reads best at its size.
    ///
    /// ```swift
    /// ProgressBar.formatRate(4.25, unit: "rows")        // "4.3 rows/s"
    /// ProgressBar.formatRate(3_210.4, unit: "rows")     // "3,210 rows/s"
    /// ProgressBar.formatRate(250_000, unit: "rows")     // "250k rows/s"
    /// ProgressBar.formatRate(1_234_567, unit: "rows")   // "1.2M rows/s"
    /// ```
    public static func formatRate(_ perSecond: Double, unit: String) -> String {
        guard perSecond.isFinite, perSecond >= 0 else { return "– \(unit)/s" }
        let number: String
        switch perSecond {
        case ..<10: number = oneDecimal(perSecond)
        case ..<100_000: number = formatCount(Int(perSecond.rounded()))  // swiftlint:disable:this trapping_conversion: finite, under 100,000
        case ..<999_500: number = String(Int((perSecond / 1_000).rounded())) + "k"  // swiftlint:disable:this trapping_conversion: finite, under a million
        default: number = oneDecimal(perSecond / 1_000_000) + "M"
        }
        return number + " \(unit)/s"
    }

    /// A count with thousands separated by commas: `12,345`.
    public static func formatCount(_ count: Int) -> String {
        ValueText.grouped(count)
    }

    /// `9.0 s` under a minute, `1m 23s` above.
    static func formatElapsed(_ seconds: Double) -> String {
        seconds < 59.95 ? oneDecimal(seconds) + " s" : ValueText.duration(seconds)
    }

    /// One decimal, rounded half up, without Foundation's locale-dependent formatting.
    private static func oneDecimal(_ value: Double) -> String {
        // Beyond an Int's range (a clock that barely moved) the number itself says enough.
        guard let tenths = Int(exactly: (value * 10).rounded()) else { return "\(value)" }
        return "\(tenths / 10).\(tenths % 10)"
    }
}
