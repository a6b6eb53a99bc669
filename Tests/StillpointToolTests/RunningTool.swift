import Foundation
import StillpointChildProcess

/// The built tool running in the background, for commands that keep running (`report --watch`) or that a
/// test interrupts. Every wait has a deadline, so that a tool that never answers fails the test instead of
/// hanging it, and a tool still running when the test ends is killed.
///
/// The waits block their thread rather than suspend: a suspended test can sit for seconds behind other
/// tests that hold the few threads of the pool, and a Ctrl-C sent late would miss the moment it tests.
final class RunningTool {
    private let process: ChildProcess

    /// With `terminal`, the tool runs on a pseudo-terminal made by `script(1)`, its standard output and
    /// error both on it, and what it writes there arrives on ``standardOutput``.
    init(_ arguments: [String], in tool: ToolRunner, terminal: Bool = false) throws {
        if terminal {
            let quoted = ([ToolRunner.executable.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            process = try tool.start(["-qfec", quoted.joined(separator: " "), "/dev/null"], executable: "/usr/bin/script", environment: ["TERM": "xterm"])
        } else {
            process = try tool.start(arguments)
        }
    }

    deinit {
        kill()
    }

    /// Whether the tool still runs.
    var isRunning: Bool { process.isRunning }

    var standardOutput: String { process.collectedOutput }
    var standardError: String { process.collectedError }

    /// Waits until standard output satisfies `condition`; false if the deadline passes or the tool exits first.
    func waitForOutput(within timeout: Duration, until condition: (String) -> Bool) -> Bool {
        Self.poll(within: timeout) { condition(standardOutput) || !process.isRunning } && condition(standardOutput)
    }

    /// Waits until standard error satisfies `condition`; false if the deadline passes or the tool exits first.
    func waitForError(within timeout: Duration, until condition: (String) -> Bool) -> Bool {
        Self.poll(within: timeout) { condition(standardError) || !process.isRunning } && condition(standardError)
    }

    /// Sends `signal` to the tool: SIGSTOP pauses it (changes then pile up in the store), SIGCONT resumes it.
    func send(_ signal: Int32) {
        process.signal(signal)
    }

    /// Sends SIGINT, as Ctrl-C in a terminal does.
    func interrupt() {
        process.signal(SIGINT)
    }

    /// Waits for the tool to exit and for its output to be read; its exit status as a shell shows it (128 + the
    /// signal for a tool killed by one), or nil if it still runs at the deadline, in which case it is killed.
    func waitForExit(within timeout: Duration) -> Int32? {
        guard process.waitUntilExit(within: timeout) != nil else {
            kill()
            return nil
        }
        return process.waitForResult().status
    }

    /// Sends Ctrl-C and waits for the tool to exit: its status (`nil` if it did not within `timeout`) and how
    /// long it took.
    func interruptAndWaitForExit(within timeout: Duration) -> (status: Int32?, took: Duration) {
        let interrupted = ContinuousClock.now
        interrupt()
        let status = waitForExit(within: timeout)
        return (status, ContinuousClock.now - interrupted)
    }

    /// Kills the tool if it still runs.
    func kill() {
        process.signal(SIGKILL)
        process.waitUntilExit()
    }

    /// Checks `condition` every 10 ms until it holds (true) or `timeout` has passed (false).
    private static func poll(within timeout: Duration, until condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            if ContinuousClock.now >= deadline { return false }
            usleep(10_000)
        }
        return true
    }
}
