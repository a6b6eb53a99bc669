import Foundation
import StillpointChildProcess

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
    func run(_ arguments: [String], input: Input, killAfter limit: TimeInterval = 120) async throws -> Result {
        // A tool that stops reading early must not kill the test process with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let tool: ChildProcess
        switch input {
        case .pipe(let data):
            tool = try start(arguments, standardInput: .pipe)
            let handle = tool.standardInput
            Thread {
                try? handle?.write(contentsOf: data)
                try? handle?.close()
            }.start()
        case .file(let path):
            tool = try start(arguments, standardInput: .file(path))
        }
        let watchdog = Task {
            try await Task.sleep(for: .seconds(limit))
            tool.signal(SIGTERM)
        }
        defer { watchdog.cancel() }
        return await tool.result()
    }
}
