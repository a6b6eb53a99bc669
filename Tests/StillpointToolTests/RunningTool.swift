import Foundation

/// The built tool running in the background, for commands that keep running (`report --watch`) or that a
/// test interrupts. Every wait has a deadline, so that a tool that never answers fails the test instead of
/// hanging it, and a tool still running when the test ends is killed.
///
/// The waits block their thread rather than suspend: a suspended test can sit for seconds behind other
/// tests that hold the few threads of the pool, and a Ctrl-C sent late would miss the moment it tests.
final class RunningTool {
    private let process: Process
    private let output: OutputCollector
    private let errors: OutputCollector

    /// With `terminal`, the tool runs on a pseudo-terminal made by `script(1)`, its standard output and
    /// error both on it, and what it writes there arrives on ``standardOutput``.
    init(_ arguments: [String], in tool: ToolRunner, terminal: Bool = false) throws {
        process = tool.process(arguments)
        if terminal, let executable = process.executableURL {
            let quoted = ([executable.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["-qfec", quoted.joined(separator: " "), "/dev/null"]
            process.environment?["TERM"] = "xterm"
        }
        let outputPipe = Pipe(), errorPipe = Pipe()
        process.standardOutput = outputPipe
        process.standardError = errorPipe
        try process.run()
        output = OutputCollector(reading: outputPipe.fileHandleForReading)
        errors = OutputCollector(reading: errorPipe.fileHandleForReading)
    }

    deinit {
        kill()
    }

    /// Whether the tool still runs.
    var isRunning: Bool { process.isRunning }

    var standardOutput: String { output.text }
    var standardError: String { errors.text }

    /// Waits until standard output satisfies `condition`; false if the deadline passes or the tool exits first.
    func waitForOutput(within timeout: Duration, until condition: (String) -> Bool) -> Bool {
        Self.poll(within: timeout) { condition(output.text) || !process.isRunning } && condition(output.text)
    }

    /// Waits until standard error satisfies `condition`; false if the deadline passes or the tool exits first.
    func waitForError(within timeout: Duration, until condition: (String) -> Bool) -> Bool {
        Self.poll(within: timeout) { condition(errors.text) || !process.isRunning } && condition(errors.text)
    }

    /// Sends `signal` to the tool: SIGSTOP pauses it (changes then pile up in the store), SIGCONT resumes it.
    func send(_ signal: Int32) {
        _ = Foundation.kill(process.processIdentifier, signal)
    }

    /// Sends SIGINT, as Ctrl-C in a terminal does.
    func interrupt() {
        _ = Foundation.kill(process.processIdentifier, SIGINT)
    }

    /// Waits for the tool to exit and for its output to be read; its exit status as a shell shows it (128 + the
    /// signal for a tool killed by one), or nil if it still runs at the deadline, in which case it is killed.
    func waitForExit(within timeout: Duration) -> Int32? {
        guard Self.poll(within: timeout, until: { !process.isRunning }) else {
            kill()
            return nil
        }
        _ = Self.poll(within: .seconds(5)) { output.ended && errors.ended }
        return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    }

    /// Kills the tool if it still runs.
    /// Sends Ctrl-C and waits for the tool to exit: its status (`nil` if it did not within `timeout`) and how
    /// long it took.
    func interruptAndWaitForExit(within timeout: Duration) -> (status: Int32?, took: Duration) {
        let interrupted = ContinuousClock.now
        interrupt()
        let status = waitForExit(within: timeout)
        return (status, ContinuousClock.now - interrupted)
    }

    func kill() {
        guard process.isRunning else { return }
        _ = Foundation.kill(process.processIdentifier, SIGKILL)
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
