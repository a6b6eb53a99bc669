import Foundation

extension ToolRunner {
    /// What the tool gets on its standard input.
    enum Input {
        /// Bytes written into a pipe while the tool runs.
        case pipe(Data)
        /// A file opened for reading (a redirect, `< file`).
        case file(String)
    }

    /// Runs the tool with `input` on its standard input. A tool still running after `limit` seconds is
    /// terminated, so that a hang fails the test (its status is then `SIGTERM`'s) instead of stalling the suite.
    func run(_ arguments: [String], input: Input, killAfter limit: TimeInterval = 120) throws -> Result {
        // A tool that stops reading early must not kill the test process with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let process = process(arguments)
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        var writer: Thread?
        switch input {
        case .pipe(let data):
            let pipe = Pipe()
            process.standardInput = pipe
            let handle = pipe.fileHandleForWriting
            writer = Thread {
                try? handle.write(contentsOf: data)
                try? handle.close()
            }
        case .file(let path):
            process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
        }
        try process.run()
        writer?.start()
        let watched = WatchedProcess(process)
        let watchdog = DispatchWorkItem { watched.terminateIfRunning() }
        DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: watchdog)
        let outputData = OutputCollector(reading: output.fileHandleForReading)
        let errorData = OutputCollector(reading: error.fileHandleForReading)
        process.waitUntilExit()
        watchdog.cancel()
        while !(outputData.ended && errorData.ended) { usleep(1_000) }
        return Result(status: process.terminationStatus, standardOutput: outputData.text, standardError: errorData.text)
    }
}

/// The tool's process, for the watchdog's thread; touched there only to stop it.
private final class WatchedProcess: @unchecked Sendable {
    private let process: Process

    init(_ process: Process) {
        self.process = process
    }

    func terminateIfRunning() {
        if process.isRunning { process.terminate() }
    }
}
