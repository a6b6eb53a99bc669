import Foundation

/// A program a suite talks to while it runs: lines written to its standard input as the workload goes, its
/// output and errors in files rather than pipes, so that nothing can fill up and block the child while nobody
/// reads. ``ChildRun`` is one that is only waited for.
///
/// ```swift
/// let child = try RunningChild(executable, ["--commits", "5"], name: "writer", in: scratch)
/// try child.send("go")
/// let ended = await child.finish()   // closes its standard input, waits for it to exit
/// guard ended.succeeded else { throw SessionBench.Failure(ended.log) }
/// ```
final class RunningChild {
    /// The file holding what the child prints on standard output.
    let output: URL
    private let errors: URL
    private let process: Process
    private let input: FileHandle
    private let terminated: AsyncStream<Void>

    /// How the child ended: its status, whether it exited with 0, and what it printed on standard error.
    struct Ending: Sendable {
        let status: Int32
        let succeeded: Bool
        let log: String
    }

    init(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil, name: String,
         in directory: TemporaryDirectory) throws {
        output = directory.url.appendingPathComponent("\(name).out")
        errors = directory.url.appendingPathComponent("\(name).log")
        for file in [output, errors] where !FileManager.default.createFile(atPath: file.path, contents: nil) {
            throw SessionBench.Failure("cannot create \(file.path)")
        }
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let outputHandle = try FileHandle(forWritingTo: output)
        let errorHandle = try FileHandle(forWritingTo: errors)
        // The child holds its own copies; ours close once it runs.
        defer {
            try? outputHandle.close()
            try? errorHandle.close()
        }
        let pipe = Pipe()
        input = pipe.fileHandleForWriting
        process.standardInput = pipe
        process.standardOutput = outputHandle
        process.standardError = errorHandle
        let (terminated, ended) = AsyncStream.makeStream(of: Void.self)
        self.terminated = terminated
        process.terminationHandler = { _ in ended.finish() }
        try process.run()
        try? pipe.fileHandleForReading.close()
    }

    /// Writes `line` and a newline to the child's standard input.
    func send(_ line: String) throws {
        try input.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Closes the child's standard input, waits for it to exit, and says how it ended.
    func finish() async -> Ending {
        try? input.close()
        for await _ in terminated {}
        return Ending(status: process.terminationStatus,
                      succeeded: process.terminationReason == .exit && process.terminationStatus == 0,
                      log: (try? String(contentsOf: errors, encoding: .utf8)) ?? "")
    }

    /// Ends a child that is still running (a workload that failed half-way), then waits for it.
    func kill() async {
        if process.isRunning { process.terminate() }
        _ = await finish()
    }
}
