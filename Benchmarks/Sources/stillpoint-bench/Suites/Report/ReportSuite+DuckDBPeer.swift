import Foundation
import StillpointReport
import StillpointStatistics

extension ReportSuite {
    /// The `report` suite's peer: DuckDB computing the same statistics in SQL over the same sessions, through
    /// `Benchmarks/Peers/duckdb_report.py`, in the same run.
    ///
    /// The script loads the store's rows into an in-memory DuckDB table (not timed) and times its queries; its
    /// numbers are checked against Stillpoint's before its time counts. Without the Python module `duckdb` the
    /// peer is unavailable and the suite says so (`pip install duckdb`).
    enum DuckDBPeer {
        struct Outcome {
            let seconds: Double
            let loadSeconds: Double
            let values: [String: [Double]]
        }

        /// Why the peer cannot run here, or `nil` when it can.
        static let unavailable: String? = {
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            probe.arguments = ["python3", "-c", "import duckdb"]
            probe.standardOutput = FileHandle.nullDevice
            probe.standardError = FileHandle.nullDevice
            do {
                try probe.run()
                probe.waitUntilExit()
            } catch {
                return "python3 cannot be started (\(error))"
            }
            return probe.terminationStatus == 0 ? nil : "the Python module duckdb is not installed (pip install duckdb)"
        }()

        static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Peers/duckdb_report.py")

        /// Runs the peer over `store` with the report's zone, instant and day boundary.
        static func run(store: URL, environment: ReportEnvironment, threads: Int, scratch: TemporaryDirectory) async throws -> Outcome {
            let run = try await ChildRun(
                URL(fileURLWithPath: "/usr/bin/env"),
                ["python3", script.path, store.path, "--time-zone", environment.timeZone.identifier,
                 "--as-of", String(environment.asOf.timeIntervalSince1970),
                 "--day-starts-at", String(environment.dayStartsAt), "--threads", String(threads)],
                name: "duckdb", in: scratch)
            guard run.succeeded else {
                throw SessionBench.Failure("the DuckDB peer failed (status \(run.status)):\n\(run.log)")
            }
            struct Printed: Decodable {
                let seconds: Double
                let load_seconds: Double
                let values: [String: [Double]]
            }
            let printed = try JSONDecoder().decode(Printed.self, from: Data(contentsOf: run.output))
            return Outcome(seconds: printed.seconds, loadSeconds: printed.load_seconds, values: printed.values)
        }

        /// Fails unless each statistic the peer computed has Stillpoint's numbers.
        static func compare(_ report: Report, _ peer: [String: [Double]]) throws {
            var differences: [String] = []
            for entry in report.entries {
                guard case .finished(let result) = entry.outcome, let theirs = peer[entry.id] else { continue }
                let ours = numbers(result.value)
                let same = ours.count == theirs.count && zip(ours, theirs).allSatisfy { a, b in
                    abs(a - b) <= 1e-9 * max(1, abs(a), abs(b))
                }
                if !same {
                    differences.append("\(entry.name): Stillpoint \(ours.prefix(12)) (\(ours.count) numbers), "
                                       + "DuckDB \(theirs.prefix(12)) (\(theirs.count) numbers)")
                }
            }
            let missing = Set(peer.keys).subtracting(report.entries.map(\.id))
            if !missing.isEmpty { differences.append("the report has no \(missing.sorted()) to check") }
            guard differences.isEmpty else {
                throw SessionBench.Failure("Stillpoint and DuckDB disagree:\n  " + differences.joined(separator: "\n  "))
            }
        }
    }
}
