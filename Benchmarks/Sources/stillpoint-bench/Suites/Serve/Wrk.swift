import Foundation

/// A load from wrk (Debian's `wrk`, `/usr/bin/wrk`): requests a second and latency percentiles of a URL, with a
/// Lua script choosing each request.
///
/// ```swift
/// let result = try await Wrk.run(port: server.port, path: "/", seconds: 10, in: directory)
/// print(result.requestsPerSecond, result.p99Milliseconds)
/// ```
enum Wrk {
    struct Result: Sendable {
        let requestsPerSecond: Double
        let p50Milliseconds: Double
        let p99Milliseconds: Double
        let requests: Int
        /// Answers that were not 2xx or 3xx, and socket errors: each workload expects none.
        let failures: Int
    }

    /// wrk's threads and open connections: one thread, as the server takes the other core; enough connections to
    /// keep the server's event loops busy.
    static let threads = 1
    static let connections = 32

    /// Where wrk is: `STILLPOINT_BENCH_WRK`, else `/usr/bin/wrk`.
    static var executable: URL {
        URL(fileURLWithPath: ProcessInfo.processInfo.environment["STILLPOINT_BENCH_WRK"] ?? "/usr/bin/wrk")
    }

    /// Runs wrk against `http://127.0.0.1:port/path` for `seconds`, with `script` (Lua: a `request` function,
    /// say) when given.
    static func run(port: Int, path: String = "/", seconds: Int, script: String? = nil, in directory: TemporaryDirectory) async throws -> Result {
        guard FileManager.default.isExecutableFile(atPath: executable.path) else {
            throw SessionBench.Failure("wrk is not at \(executable.path): apt-get install wrk, or set STILLPOINT_BENCH_WRK to its path")
        }
        var arguments = ["-t\(threads)", "-c\(connections)", "-d\(seconds)s", "--latency"]
        if let script {
            let file = directory.url.appendingPathComponent("wrk-\(UUID().uuidString).lua")
            try Data(script.utf8).write(to: file)
            arguments += ["-s", file.path]
        }
        arguments.append("http://127.0.0.1:\(port)\(path)")
        let run = try await ChildRun(executable, arguments, name: "wrk-\(UUID().uuidString)", in: directory)
        let output = (try? String(contentsOf: run.output, encoding: .utf8)) ?? ""
        guard run.succeeded else { throw SessionBench.Failure("wrk failed (\(run.status)): \(run.log) \(output)") }
        return try parse(output)
    }

    /// wrk's report: `Requests/sec:`, the `--latency` distribution, and its error lines.
    static func parse(_ output: String) throws -> Result {
        var rate: Double?, p50: Double?, p99: Double?, requests: Int?
        var failures = 0
        for line in output.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," }).map(String.init)
            if line.hasPrefix("Requests/sec:") { rate = words.last.flatMap { Double($0) } }
            if line.hasPrefix("50%") { p50 = words.last.flatMap(milliseconds) }
            if line.hasPrefix("99%") { p99 = words.last.flatMap(milliseconds) }
            if line.contains("requests in") { requests = words.first.flatMap { Int($0) } }
            if line.hasPrefix("Non-2xx or 3xx responses:") { failures += words.last.flatMap { Int($0) } ?? 0 }
            if line.hasPrefix("Socket errors:") {
                // `Socket errors: connect 0, read 0, write 0, timeout 0`
                failures += words.compactMap { Int($0) }.reduce(0, +)
            }
        }
        guard let rate, let p50, let p99, let requests else { throw SessionBench.Failure("wrk's output was not understood: \(output.prefix(2_000))") }
        return Result(requestsPerSecond: rate, p50Milliseconds: p50, p99Milliseconds: p99, requests: requests, failures: failures)
    }

    /// `812.00us`, `3.45ms`, `1.02s` in milliseconds.
    static func milliseconds(_ text: String) -> Double? {
        for (unit, scale) in [("us", 0.001), ("ms", 1.0), ("s", 1_000.0)] where text.hasSuffix(unit) {
            return Double(text.dropLast(unit.count)).map { $0 * scale }
        }
        return nil
    }
}
