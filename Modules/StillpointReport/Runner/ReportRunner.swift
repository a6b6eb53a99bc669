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

    /// Runs `entries` in manifest order and returns the report; `activityDays` > 0 also charts that many days
    /// of daily practice up to the report's day.
    public func run(_ entries: [PreparedEntry], environment: ReportEnvironment, activityDays: Int = 0,
                    onEvent: @escaping @MainActor @Sendable (ReportEvent) -> Void = { _ in }) async -> Report {
        var report = Report(
            asOf: environment.asOf, timeZone: environment.timeZone,
            entries: entries.map { ReportEntry(id: $0.id, name: $0.name, title: $0.statistic.description.name, outcome: .waiting) })
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
        let activity = activityDays > 0 ? activityOperation(days: activityDays, environment: environment) : nil
        queue.addOperations(operations + (activity.map { [$0] } ?? []))

        var remaining = operations.count + (activity == nil ? 0 : 1)
        for await event in events where remaining > 0 {
            if event.operation === activity {
                switch event.kind {
                case .finished(let value): report.activity = value as? [DailyActivity] ?? []
                case .failed, .cancelled: break
                default: continue
                }
                remaining -= 1
                if remaining == 0 { break }
                continue
            }
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

    /// Time practised per local day over the last `days` days, for the calendar heatmap.
    private func activityOperation(days: Int, environment: ReportEnvironment) -> ContextOperation<[DailyActivity]> {
        ContextOperation(identifier: "activity", priority: .low) { context, _ in
            let boundary = DayBoundary(timeZone: environment.timeZone, dayStartsAt: environment.dayStartsAt)
            let today = boundary.day(of: environment.asOf)
            let first = today.adding(days: -(days - 1))
            var filter = SessionFilter(kinds: environment.kinds, from: environment.from, until: environment.until, asOf: environment.asOf)
            // A day earlier than the first charted day, since zones can move a session's day by one.
            let earliest = Date(timeIntervalSince1970: Double(first.dayNumber - 1) * 86_400)
            filter.from = max(filter.from ?? earliest, earliest)
            var totals: [LocalDay: (Int, Double)] = [:]
            try SessionScan.forEach(filter, in: context) { session in
                let day = boundary.day(of: session.start, timeZone: session.timeZone)
                guard day >= first else { return }
                totals[day, default: (0, 0)].0 += 1
                totals[day, default: (0, 0)].1 += session.duration
            }
            return (0..<days).map { offset in
                let day = first.adding(days: offset)
                let (sessions, seconds) = totals[day] ?? (0, 0)
                return DailyActivity(day: day, sessions: sessions, seconds: seconds)
            }
        }
    }

    static func message(for error: any Error) -> String {
        (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
    }
}
