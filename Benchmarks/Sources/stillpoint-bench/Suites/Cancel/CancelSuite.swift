import Foundation
import StillpointCore

/// Cancellation that reaches SQLite, interrupting a running statement: a `ContextOperation` scanning N = 1,000,000 practices
/// on a `ContextOperationQueue` is cancelled 50 ms after its `started` event; how long until the queue reports
/// it `cancelled`.
///
/// Two kinds of scan, each measured in the same run with and without the cancel:
/// - `aggregate`: one dictionary fetch, `SUM(duration)` and `COUNT(*)` grouped by `note` (250,000 groups of
///   text SQLite must sort) with a `HAVING`: a single long SQL statement, which only SQLite's progress
///   handler can stop.
/// - `enumerate`: `context.enumerate` over every practice, 1,000 objects at a time, summing durations and
///   calling `checkCancellation()` between batches: the cursor is interrupted, or the next check throws.
///
/// `seconds` is the time from calling `cancel()` to receiving the operation's `cancelled` event from
/// `queue.events`; `baseline_seconds` is the same operation left to finish (from its `started` event to its
/// `finished` event), for scale: the ratio is the fraction of the scan a cancel costs. Extra metrics:
/// `cancel_call_us` (how long `cancel()` itself took to return), `cancelled_after_ms` (when, after the
/// `started` event, `cancel()` was called) and `fixture_build_s` (building the shared store, once per process).
///
/// The store is a file only: the 1,000,000 rows are written by raw SQLite into a file Stillpoint made, and a
/// private in-memory store cannot be shared with another connection.
struct CancelSuite: BenchmarkSuite {
    let name = "cancel"
    let summary = "cancelling a scan of N rows 50 ms in: time from cancel() to the cancelled event"
    let sizes = [1_000_000]
    let stores: [StoreKind] = [.file]
    /// The scan must still run when it is cancelled, 50 ms after it starts, even in a release build.
    let smokeSize = 200_000
    static let cancelAfter = Duration.milliseconds(50)

    var workloads: [Workload] {
        [
            Workload(name: "aggregate") { try await Self.measure($0, scan: .aggregate) },
            Workload(name: "enumerate") { try await Self.measure($0, scan: .enumerate) },
        ]
    }

    enum Scan: Sendable {
        case aggregate
        case enumerate

        /// A new operation doing the scan; its result is the number of groups, or the total duration.
        func operation(identifier: String) throws -> ContextOperation<Int> {
            switch self {
            case .aggregate:
                var request = FetchRequest(Practice.self)
                request.properties = [.attribute("note"), .aggregate(.sum, of: "duration", as: "total"), .count(as: "sessions")]
                request.groupBy = ["note"]
                request.having = try FetchPredicate("total > %@", 9_000)
                let groups = request
                return ContextOperation(identifier: identifier) { context, operation in
                    try operation.checkCancellation()
                    return try context.fetchDictionaries(groups).count
                }
            case .enumerate:
                return ContextOperation(identifier: identifier) { context, operation in
                    var total = 0
                    try context.enumerate(FetchRequest(Practice.self)) { batch in
                        try operation.checkCancellation()
                        for practice in batch { total += practice[Practice.duration] }
                    }
                    return total
                }
            }
        }
    }

    static func measure(_ benchmarkCase: BenchmarkCase, scan: Scan) async throws -> Sample {
        guard benchmarkCase.store == .file else {
            throw Failure("the cancel suite runs on a file store only (its rows are written by raw SQLite)")
        }
        let fixture = try await CancelFixture.shared.store(rows: benchmarkCase.n)
        let queue = ContextOperationQueue(container: fixture.container, name: "cancel-bench", maxConcurrentOperationCount: 1)
        var events = queue.events.makeAsyncIterator()

        // The scan left to finish: the scale.
        let full = try scan.operation(identifier: "full")
        queue.addOperation(full)
        let fullStarted = try await next(&events, of: full, "started")
        let fullEnded = try await next(&events, of: full, "finished", "failed", "cancelled")
        guard fullEnded.event.kindName == "finished" else { throw Failure("the uncancelled scan ended: \(fullEnded.event.kind)") }
        let baseline = (fullEnded.at - fullStarted.at).seconds

        // The same scan, cancelled 50 ms after it started.
        let cancelled = try scan.operation(identifier: "cancelled")
        queue.addOperation(cancelled)
        let started = try await next(&events, of: cancelled, "started")
        try await Task.sleep(until: started.at + cancelAfter, clock: .continuous)
        let cancelAt = ContinuousClock.now
        cancelled.cancel()
        let returnedAt = ContinuousClock.now
        let ended = try await next(&events, of: cancelled, "finished", "failed", "cancelled")
        guard ended.event.kindName == "cancelled" else {
            throw Failure("the scan was not cancelled, it ended: \(ended.event.kind) (the full scan took \(baseline) s)")
        }
        await queue.waitUntilAllOperationsAreFinished()

        return Sample(seconds: (ended.at - cancelAt).seconds, baselineSeconds: baseline, metrics: [
            "cancel_call_us": (returnedAt - cancelAt).seconds * 1e6,
            "cancelled_after_ms": (cancelAt - started.at).seconds * 1_000,
            "fixture_build_s": fixture.buildSeconds,
        ])
    }

    /// Reads events until one of `kinds` arrives for `operation`, and when it was received.
    private static func next(_ events: inout AsyncStream<ContextOperationEvent>.Iterator, of operation: AnyContextOperation,
                             _ kinds: String...) async throws -> (event: ContextOperationEvent, at: ContinuousClock.Instant) {
        while let event = await events.next() {
            if event.operation === operation, kinds.contains(event.kindName) {
                return (event, .now)
            }
        }
        throw Failure("the event stream ended before '\(operation.identifier)' was \(kinds.joined(separator: " or "))")
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: Table

    func table(of measurements: [Measurement], options: BenchmarkOptions) -> String {
        var sections = ["\(name): \(summary); median of \(options.runs) runs. The baseline is the same scan left to finish "
                        + "(for scale, no target): the ratio is the share of the full scan that the cancel takes."]
        for store in StoreKind.allCases {
            let rows = measurements.filter { $0.store == store }
            guard !rows.isEmpty else { continue }
            let header = ["scan", "n", "cancel → cancelled event", "cancel() returns", "cancelled after", "full scan", "ratio"]
            let cells = rows.map { measurement in
                [measurement.workload, String(measurement.n), String(format: "%.2f ms", measurement.seconds * 1_000),
                 measurement.metric("cancel_call_us").map { String(format: "%.1f µs", $0) } ?? "-",
                 measurement.metric("cancelled_after_ms").map { String(format: "%.1f ms", $0) } ?? "-",
                 measurement.baselineSeconds.map(ResultTable.seconds) ?? "-",
                 measurement.ratio.map { String(format: "%.4f", $0) } ?? "-"]
            }
            var section = "**\(store.title)**\n\n" + ResultTable.render(header: header, rows: cells)
            if let build = rows.first?.metric("fixture_build_s") {
                section += "\n\nThe shared \(rows[0].n)-row store took \(String(format: "%.2f", build)) s to build (once per process)."
            }
            sections.append(section)
        }
        return sections.joined(separator: "\n\n")
    }
}
