import Foundation
import PracticeLog
import StillpointCore
import StillpointStatistics

/// Runs a manifest's statistics as context operations on a queue, concurrently, each in its own background
/// context, and hands each result to the main actor the moment it completes.
///
/// A failing statistic reports its error and the others still finish; ``cancel()`` stops the running ones
/// (their SQLite statements are interrupted) and the waiting ones never start.
///
/// ```swift
/// let runner = ReportRunner(container: container)
/// let report = try await runner.run(entries, environment: manifest.environment) { event in
///     liveView.show(event)          // on the main actor, as each statistic moves on
/// }
/// ```
public final class ReportRunner: Sendable {
    public let container: PersistentContainer
    private let queue: ContextOperationQueue

    public init(container: PersistentContainer, maxConcurrentStatistics: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.container = container
        self.queue = ContextOperationQueue(container: container, name: "report",
                                           maxConcurrentOperationCount: max(1, maxConcurrentStatistics),
                                           dependencyFailurePolicy: .runDependents)
    }

    /// Cancels the statistics that have not finished.
    public func cancel() {
        queue.cancelAllOperations()
    }

    /// Runs `entries` in manifest order and returns the report.
    public func run(_ entries: [PreparedEntry], environment: ReportEnvironment,
                    onEvent: @escaping @MainActor @Sendable (ReportEvent) -> Void = { _ in }) async -> Report {
        var report = Report(
            asOf: environment.asOf, timeZone: environment.timeZone,
            entries: entries.map { entry in
                let description = entry.statistic.description
                return ReportEntry(id: entry.id, name: entry.name, title: description.name, presentation: description.presentation,
                                   outcome: .waiting)
            })
        await onEvent(.planned(report.entries))

        let events = queue.events
        var indexByOperation: [ObjectIdentifier: Int] = [:]
        var operations: [AnyContextOperation] = []
        for (index, entry) in entries.enumerated() {
            let compute = entry.prepared.compute
            let operation = ContextOperation<StatisticResult>(identifier: entry.name) { context, _ in
                // One read transaction for the whole computation: it never sees half of a concurrent write.
                try context.withPinnedSnapshot { try compute(context) }
            }
            indexByOperation[ObjectIdentifier(operation)] = index
            operations.append(operation)
        }
        queue.addOperations(operations)

        var remaining = operations.count
        for await event in events where remaining > 0 {
            guard let index = indexByOperation[ObjectIdentifier(event.operation)] else { continue }
            let outcome: ReportOutcome
            switch event.kind {
            case .enqueued: continue
            case .started: outcome = .running(progress: nil)
            case .progress(let progress): outcome = .running(progress: progress.fractionCompleted)
            case .finished(let value):
                outcome = (value as? StatisticResult).map(ReportOutcome.finished) ?? .failed(message: "the statistic returned no result")
            case .failed(let error): outcome = .failed(message: Self.message(for: error))
            case .cancelled: outcome = .cancelled
            }
            report.entries[index].outcome = outcome
            await onEvent(.updated(index: index, outcome))
            if case .running = outcome { continue }
            remaining -= 1
            if remaining == 0 { break }
        }
        await onEvent(.completed(report))
        return report
    }

    static func message(for error: any Error) -> String {
        (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
    }
}
