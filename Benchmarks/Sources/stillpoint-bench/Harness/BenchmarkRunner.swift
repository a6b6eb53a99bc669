import Foundation

/// Measures every workload of a suite for each size and store, `--runs` times, and keeps the medians.
struct BenchmarkRunner {
    let options: BenchmarkOptions
    /// Where progress goes: standard error, so that `--json` output stays clean.
    let log: @Sendable (String) -> Void

    func run(_ suite: any BenchmarkSuite) async throws -> [Measurement] {
        let sizes = options.sizes ?? (options.smoke ? [suite.smokeSize] : suite.sizes)
        let stores = options.stores ?? (options.smoke ? suite.smokeStores : suite.stores)
        var measurements: [Measurement] = []
        for store in stores {
            for n in sizes {
                for workload in suite.workloads where options.workloads?.contains(workload.name) ?? true {
                    if let only = workload.stores, !only.contains(store) {
                        log("\(suite.name) \(workload.name) n=\(n) store=\(store.rawValue): skipped, it measures "
                            + only.map(\.rawValue).joined(separator: " and ") + " only")
                        continue
                    }
                    let measurement = try await measure(workload, of: suite, n: n, store: store)
                    log("\(suite.name) \(workload.name) n=\(n) store=\(store.rawValue): "
                        + "\(Self.format(measurement.seconds))"
                        + (measurement.baselineSeconds.map { " (baseline \(Self.format($0)))" } ?? ""))
                    measurements.append(measurement)
                }
            }
        }
        return measurements
    }

    private func measure(_ workload: Workload, of suite: any BenchmarkSuite, n: Int, store: StoreKind) async throws -> Measurement {
        var samples: [Sample] = []
        for run in 0..<(options.warmup + options.runs) {
            let directory = try TemporaryDirectory()
            defer { directory.remove() }
            let benchmarkCase = BenchmarkCase(n: n, store: store, directory: directory)
            let sample = try await workload.measure(benchmarkCase)
            try await benchmarkCase.settle()  // before the next run's clocks start
            if store == .postgres { try PostgresServer.dropDatabases() }
            if run >= options.warmup { samples.append(sample) }
        }
        var metricKeys: [String] = []
        for sample in samples {
            for key in sample.metrics.keys.sorted() where !metricKeys.contains(key) { metricKeys.append(key) }
        }
        let baselines = samples.compactMap(\.baselineSeconds)
        return Measurement(
            suite: suite.name, workload: workload.name, n: n, store: store,
            seconds: Self.median(samples.map(\.seconds)),
            baselineSeconds: baselines.isEmpty ? nil : Self.median(baselines),
            metrics: metricKeys.map { key in (key, Self.median(samples.compactMap { $0.metrics[key] })) })
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    static func format(_ seconds: Double) -> String {
        String(format: "%.4f s", seconds)
    }
}
