import Foundation

extension SessionBench {
    /// Runs one side of a workload in a fresh process of this same benchmark binary, so that its peak resident
    /// memory (`VmHWM`) is its own: not raised by the other side, by earlier runs, or by the parent's heap.
    ///
    /// The child is `stillpoint-bench <suite> --workload <workload> --n <n> --store <store> --runs 1 --warmup 0
    /// --json` with `STILLPOINT_BENCH_SIDE=<side>` in its environment; the workload sees the variable, measures
    /// that side only, and reports `seconds` and its metrics through the ordinary JSON output, which the parent
    /// reads back. The same command runs one side by hand, for profiling:
    ///
    /// ```sh
    /// STILLPOINT_BENCH_SIDE=stillpoint stillpoint-bench import --runs 1 --warmup 0
    /// ```
    enum ChildProcess {
        static let variable = "STILLPOINT_BENCH_SIDE"

        /// The side this process measures when it is a child (`stillpoint` or `baseline`), else `nil`.
        static var side: String? {
            ProcessInfo.processInfo.environment[variable]
        }

        /// Runs `side` of `workload` in a child process and returns the numbers of its JSON measurement.
        static func measure(suite: String, workload: String, n: Int, store: StoreKind, side: String,
                            scratch directory: TemporaryDirectory) async throws -> [String: Double] {
            let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
            var environment = ProcessInfo.processInfo.environment
            environment[variable] = side
            // Both sides on the parent's server, rather than each child starting its own.
            if store == .postgres { environment[PostgresServer.variable] = try PostgresServer.maintenanceURI() }
            let run = try await ChildRun(URL(fileURLWithPath: executable),
                                         [suite, "--workload", workload, "--n", String(n), "--store", store.rawValue,
                                          "--runs", "1", "--warmup", "0", "--json"],
                                         environment: environment, name: "child-\(side)", in: directory)
            let log = run.log
            guard run.succeeded else {
                throw Failure("the \(side) side of \(suite)/\(workload) failed (status \(run.status)):\n\(log)")
            }
            let data = try Data(contentsOf: run.output)
            guard let array = try JSONSerialization.jsonObject(with: data) as? [[String: Any]], let object = array.first else {
                throw Failure("the \(side) side of \(suite)/\(workload) printed no measurement:\n\(String(decoding: data, as: UTF8.self))\n\(log)")
            }
            var numbers: [String: Double] = [:]
            for (key, value) in object {
                switch value {
                case let number as Double: numbers[key] = number
                case let number as Int: numbers[key] = Double(number)
                case let number as NSNumber: numbers[key] = number.doubleValue
                default: continue
                }
            }
            guard numbers["seconds"] != nil else {
                throw Failure("the \(side) side of \(suite)/\(workload) reported no seconds: \(object)")
            }
            return numbers
        }
    }
}
