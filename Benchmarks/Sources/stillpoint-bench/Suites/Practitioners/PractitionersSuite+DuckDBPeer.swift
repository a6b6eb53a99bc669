import Foundation

extension PractitionersSuite {
    /// The DuckDB peer: `Benchmarks/Peers/duckdb_practitioners.py` over the fixture's CSV copy of the sessions (its
    /// load not timed), in the same run; `nil` without the Python module `duckdb` (`pip install duckdb`), which the
    /// report suite's ``ReportSuite/DuckDBPeer/unavailable`` finds out once.
    enum DuckDBPeer {
        struct Outcome {
            let seconds: Double
            /// Each report's seconds, for `one` and `insert`.
            let times: [Double]
            let values: [String: [String: [Double]]]
        }

        static let script = ReportSuite.DuckDBPeer.script.deletingLastPathComponent().appendingPathComponent("duckdb_practitioners.py")

        /// Runs the peer in `mode` (`all`, `one`, `insert`) with `lines` as its `--ids` file.
        static func run(_ peers: Fixture.Peers, mode: String, lines: [String], scratch: TemporaryDirectory) async throws -> Outcome? {
            guard ReportSuite.DuckDBPeer.unavailable == nil else { return nil }
            let ids = scratch.url.appendingPathComponent("duckdb-ids.txt")
            try Data(lines.map { $0 + "\n" }.joined().utf8).write(to: ids)
            let run = try await ChildRun(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["python3", script.path, peers.csv.path, "--as-of", String(PractitionerData.asOf.timeIntervalSince1970),
                 "--mode", mode, "--ids", ids.path, "--threads", String(ProcessInfo.processInfo.activeProcessorCount)],
                name: "duckdb-\(mode)", in: scratch)
            guard run.succeeded else {
                throw SessionBench.Failure("the DuckDB peer failed (status \(run.status)):\n\(run.log)")
            }
            struct Printed: Decodable {
                let seconds: Double
                let times: [Double]
                let values: [String: [String: [Double]]]
            }
            let printed = try JSONDecoder().decode(Printed.self, from: Data(contentsOf: run.output))
            return Outcome(seconds: printed.seconds, times: printed.times, values: printed.values)
        }
    }
}
