import Foundation

/// A program run to its end by a suite (a child of this benchmark, a peer script), its output and errors in
/// files rather than pipes, so that nothing can fill up and block the child while nobody reads.
///
/// ```swift
/// let run = try await ChildRun(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "peer.py"], name: "duckdb", in: scratch)
/// guard run.succeeded else { throw SessionBench.Failure(run.log) }
/// let printed = try Data(contentsOf: run.output)
/// ```
struct ChildRun {
    /// The file holding what the child printed on standard output.
    let output: URL
    /// What the child printed on standard error.
    let log: String
    let status: Int32
    /// Whether the child exited (not killed by a signal) with status 0.
    let succeeded: Bool

    init(_ executable: URL, _ arguments: [String], environment: [String: String]? = nil, name: String,
         in directory: TemporaryDirectory) async throws {
        output = directory.url.appendingPathComponent("\(name).out")
        let errors = directory.url.appendingPathComponent("\(name).log")
        for file in [output, errors] where !FileManager.default.createFile(atPath: file.path, contents: nil) {
            throw SessionBench.Failure("cannot create \(file.path)")
        }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        let outputHandle = try FileHandle(forWritingTo: output)
        let errorHandle = try FileHandle(forWritingTo: errors)
        defer {
            try? outputHandle.close()
            try? errorHandle.close()
        }
        process.standardOutput = outputHandle
        process.standardError = errorHandle
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        status = process.terminationStatus
        succeeded = process.terminationReason == .exit && process.terminationStatus == 0
    }
}
