import Foundation
import GRDBSQLite
import StillpointCore
import StillpointSQLite
import Synchronization

/// The export benchmark: N session rows to CSV through an ``ExportOperation`` on a
/// ``ContextOperationQueue``, against a raw SQLite cursor writing the same file in the same run.
///
/// Both sides read the same store (built once per process, not timed), write every row in row-id order with the
/// columns `start,duration,kind,key`, a header row, CRLF line endings, RFC 4180 quoting where a field needs it,
/// ISO 8601 UTC dates (milliseconds only when a date has a fraction) and doubles as Swift prints them; both write
/// a temporary file beside the destination, `fsync` it and rename it over the destination. After each run the two
/// files are compared byte for byte (not timed), so "the same file" is checked, not assumed.
struct ExportSuite: BenchmarkSuite {
    let name = "export"
    let summary = "N session rows to CSV through ExportOperation vs a raw SQLite cursor writing the same file"
    let sizes = [1_000_000]
    let stores: [StoreKind] = [.file]

    static let maxRatio = 2.0
    /// Measurements made so far in this process, to alternate which side goes first.
    private static let measurements = Atomic<Int>(0)

    var workloads: [Workload] {
        [Workload(name: "export", target: .init(n: 1_000_000, maxRatio: Self.maxRatio), measure: Self.measure)]
    }

    static func measure(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        guard benchmarkCase.store == .file else {
            throw SessionBench.Failure("the export suite reads a SQLite file store only (--store file)")
        }
        let n = benchmarkCase.n
        let fixture = try await SessionBench.Fixture.shared.directory(rows: n)

        let container = try PersistentContainer(schema: SessionBench.Record.schema,
                                                location: .file(fixture.url.appendingPathComponent("raw.sqlite")))
        let queue = ContextOperationQueue(container: container, name: "export")

        let baselineURL = benchmarkCase.directory.url.appendingPathComponent("baseline.csv")
        var baselineRows = 0
        var baselineCPU = 0.0
        var baseline = 0.0
        func runBaseline() throws {
            let raw = try RawSQLite(.file, in: fixture)
            let cpu = ResourceUsage.processCPUSeconds()
            baseline = try Stopwatch.seconds { baselineRows = try RawCSVExport.write(from: raw, to: baselineURL) }
            baselineCPU = ResourceUsage.processCPUSeconds() - cpu
        }

        let url = benchmarkCase.directory.url.appendingPathComponent("stillpoint.csv")
        var written = 0
        var cpuSeconds = 0.0
        var seconds = 0.0
        func runStillpoint() async throws {
            let operation = ExportOperation(FetchRequest(SessionBench.Record.self), columns: SessionBench.Record.columns,
                                            format: .csv, to: url, identifier: "export")
            let cpu = ResourceUsage.processCPUSeconds()
            seconds = try await Stopwatch.seconds {
                queue.addOperation(operation)
                written = try await operation.value
            }
            cpuSeconds = ResourceUsage.processCPUSeconds() - cpu
        }

        // Which side goes first alternates, so that neither always meets the other's leftovers (dirty pages of
        // the file it wrote being flushed, the neighbours' load).
        if measurements.add(1, ordering: .relaxed).oldValue % 2 == 0 {
            try runBaseline()
            try await runStillpoint()
        } else {
            try await runStillpoint()
            try runBaseline()
        }
        try container.close()

        guard written == n, baselineRows == n else {
            throw SessionBench.Failure("the exports wrote \(written) (Stillpoint) and \(baselineRows) (baseline) rows, not \(n)")
        }
        let size = try compare(url, baselineURL)
        return Sample(seconds: seconds, baselineSeconds: baseline, metrics: [
            "cpu_ms": cpuSeconds * 1_000, "baseline_cpu_ms": baselineCPU * 1_000, "file_mb": Double(size) / 1_048_576,
        ])
    }

    /// Checks that the two files are byte for byte the same, and returns their size.
    private static func compare(_ url: URL, _ baselineURL: URL) throws -> Int {
        let data = try Data(contentsOf: url)
        let baselineData = try Data(contentsOf: baselineURL)
        guard data != baselineData else { return data.count }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let baselineLines = String(decoding: baselineData, as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let common = min(lines.count, baselineLines.count)
        let index = (0..<common).first { lines[$0] != baselineLines[$0] } ?? common
        func line(_ lines: [Substring]) -> String { lines.indices.contains(index) ? String(lines[index]) : "(none)" }
        throw SessionBench.Failure("the two CSV files differ (\(data.count) and \(baselineData.count) bytes); line \(index + 1) is "
                                   + "'\(line(lines))' from Stillpoint and '\(line(baselineLines))' from the baseline")
    }

    // MARK: Table

    func table(of measurements: [Measurement], options: BenchmarkOptions) -> String {
        var text = ResultTable.generic(measurements, title: "\(name): \(summary); median of \(options.runs) runs")
        let verdicts = measurements.compactMap { measurement -> String? in
            guard measurement.n == 1_000_000, let ratio = measurement.ratio else { return nil }
            return "- time: \(ResultTable.ratio(ratio)) of the baseline (target within \(ResultTable.ratio(Self.maxRatio))): "
                + (ratio <= Self.maxRatio ? "met" : "MISSED")
        }
        if !verdicts.isEmpty { text += "\n\nTargets:\n" + verdicts.joined(separator: "\n") }
        return text
    }
}
