/// A named group of workloads, measured together and printed as one table.
///
/// A new suite is one file: a type conforming to this protocol, plus its line in ``SuiteRegistry/all``.
///
/// ```swift
/// struct ExportSuite: BenchmarkSuite {
///     let name = "export"
///     let summary = "CSV export of N sessions"
///     let sizes = [1_000, 100_000]
///     let stores: [StoreKind] = [.file]
///     var workloads: [Workload] { [Workload(name: "csv") { benchmarkCase in ... }] }
/// }
/// ```
protocol BenchmarkSuite: Sendable {
    /// The name given on the command line and written in every measurement: `seed004`.
    var name: String { get }
    /// One line saying what the suite measures.
    var summary: String { get }
    /// The sizes (N) measured unless `--n` chooses others.
    var sizes: [Int] { get }
    /// The stores measured unless `--store` chooses others.
    var stores: [StoreKind] { get }
    /// The size of a smoke run (`--smoke`): small enough to run in CI in a debug build, large enough for every
    /// workload to do what it measures. By default the smallest of ``sizes``, at most 500.
    var smokeSize: Int { get }
    /// The stores of a smoke run: by default ``stores``, plus `postgres` for a suite that measures it.
    var smokeStores: [StoreKind] { get }
    var workloads: [Workload] { get }

    /// The suite's table of results; by default one row per measurement.
    func table(of measurements: [Measurement], options: BenchmarkOptions) -> String
}

extension BenchmarkSuite {
    var smokeSize: Int { min(sizes.min() ?? 500, 500) }
    var smokeStores: [StoreKind] { stores }

    func table(of measurements: [Measurement], options: BenchmarkOptions) -> String {
        ResultTable.generic(measurements, title: "\(name): \(summary), median of \(options.runs) runs")
    }
}

/// One thing a suite measures, for each size and store.
struct Workload: Sendable {
    /// The name written in every measurement: `write`, `fetch-delete`.
    let name: String
    /// The ratio to the baseline the workload should stay within, and at which size; `nil` for none.
    let target: Target?
    /// The only stores the workload means something on (another process cannot see a store in memory); `nil`
    /// for every store. The runner skips the others, and says so.
    let stores: [StoreKind]?
    /// Measures the workload once; the harness calls it `--runs` times per case and keeps the medians.
    let measure: @Sendable (BenchmarkCase) async throws -> Sample

    init(name: String, target: Target? = nil, stores: [StoreKind]? = nil,
         measure: @escaping @Sendable (BenchmarkCase) async throws -> Sample) {
        self.name = name
        self.target = target
        self.stores = stores
        self.measure = measure
    }

    struct Target: Sendable {
        let n: Int
        let maxRatio: Double
    }
}

/// What one measurement is of: a size, a store, and a scratch folder removed after it.
struct BenchmarkCase: Sendable {
    let n: Int
    let store: StoreKind
    /// A fresh empty folder for this measurement's files, removed when it finishes.
    let directory: TemporaryDirectory

    /// Waits for contexts dropped by untimed set-up work to free their objects, which they do on their own
    /// queues after they are gone, so that no clock runs while that happens.
    func settle() async throws {
        try await Task.sleep(for: .milliseconds(100))
    }
}

/// The result of measuring a workload once.
struct Sample: Sendable {
    /// Seconds the measured work took.
    var seconds: Double
    /// Seconds the baseline took for the same work in the same run, if the workload has one.
    var baselineSeconds: Double?
    /// Further metrics by their JSON key (`peak_rss_mb`, `max_gap_ms`); the harness keeps the median of each.
    var metrics: [String: Double] = [:]
}
