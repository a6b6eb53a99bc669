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
        let child = try RunningChild(executable, arguments, environment: environment, name: name, in: directory)
        let ending = await child.finish()
        output = child.output
        log = ending.log
        status = ending.status
        succeeded = ending.succeeded
    }
}
