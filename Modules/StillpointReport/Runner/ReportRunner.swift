import Foundation
import PracticeLog
import StillpointCore
import StillpointManifest
import StillpointStatistics

/// Runs a manifest's statistics as context operations on a queue, concurrently, each in its own background
/// context, and hands each result to the main actor the moment it completes.
///
/// A failing statistic reports its error and the others still finish; ``cancel()`` stops the running ones
/// (their SQLite statements are interrupted) and the waiting ones never start.
///
/// A runner of one practitioner's report (``practitioner``) computes the statistics that read the digest in the
/// digest's own operation, one after the other, as soon as it is read: a practitioner's digest is small, and an
/// operation each cost more in threads woken than the statistics themselves. Their entries then start and finish
/// together.
///
/// ```swift
/// let runner = ReportRunner(container: container)
/// let report = try await runner.run(entries, environment: manifest.environment) { event in
///     liveView.show(event)          // on the main actor, as each statistic moves on
/// }
/// ```
public final class ReportRunner: Sendable {
    public let container: PersistentContainer
    private let maxConcurrentStatistics: Int
    /// Whether the digest statistics' results are kept for the next run to reuse (``KeptResult``).
    private let keepsResults: Bool
    /// The queues of the runs under way, for ``cancel()``: a queue is made for each run and let go after it, so
    /// that a runner kept between runs (one per practitioner in a report service) holds none.
    private let running = LockedState<[ContextOperationQueue]>([])
    private let log: @Sendable (String) -> Void
    /// The digest of the last run and the results of its digest statistics, for the next run to catch up with.
    private let kept = LockedState<(digest: SessionDigest?, results: [String: KeptResult])>((nil, [:]))
    /// The first failure of the store (not of a statistic) in the last run.
    private let storeFailure = LockedState<StoreError?>(nil)
    /// How the digest caught up with the change log on the last run; `nil` when that run built it (or read none).
    private let catchUp = LockedState<DigestUpdate?>(nil)

    /// The first error of the store itself that failed a statistic in the last run (the server cancelled a
    /// statement, went away, refused a right), or `nil`: a failure of the whole report, not of one statistic.
    ///
    /// ```swift
    /// let report = await runner.run(entries, environment: environment)
    /// if let failure = runner.lastStoreFailure { print(failure) }   // "...: the PostgreSQL server cancelled a statement ..."
    /// ```
    public var lastStoreFailure: StoreError? { storeFailure.withLock { $0 } }

    /// The row id of the practitioner whose sessions the report reads (``PractitionerReports``); `nil`: every session.
    public let practitioner: Int64?

    /// A runner of up to `maxConcurrentStatistics` statistics at a time; `log` hears how each run read the
    /// store (built the digest, caught up with it, or had to build it again, and why). With `keepsResults` false
    /// a later run computes every digest statistic again rather than reuse a result none of whose sessions
    /// changed: a report service holding thousands of runners keeps no report values between runs.
    public init(container: PersistentContainer, maxConcurrentStatistics: Int = ProcessInfo.processInfo.activeProcessorCount,
                practitioner: Int64? = nil, keepsResults: Bool = true, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.container = container
        self.practitioner = practitioner
        self.keepsResults = keepsResults
        self.maxConcurrentStatistics = max(1, maxConcurrentStatistics)
        self.log = log
    }

    /// How the digest of the last run caught up with the change log (the change sets read and the sessions of this
    /// runner's practitioner they changed); `nil` when the last run built the digest or had no statistic reading it.
    ///
    /// ```swift
    /// _ = await runner.run(entries, environment: environment)
    /// if runner.lastCatchUp?.changedAnySession == false { print("none of this practitioner's sessions changed") }
    /// ```
    public var lastCatchUp: DigestUpdate? {
        catchUp.withLock { $0 }
    }

    /// The digest the last run read or caught up, if any: a report service asks whose sessions it holds, how
    /// large it is, and the change-log position it is current with.
    var keptDigest: SessionDigest? { kept.withLock { $0.digest } }

    /// How many digest statistics' results are kept for the next run.
    var keptResultCount: Int { kept.withLock { $0.results.count } }

    /// Cancels the statistics that have not finished.
    public func cancel() {
        for queue in running.withLock({ $0 }) { queue.cancelAllOperations() }
    }

    /// Runs `entries` in manifest order and returns the report.
    ///
    /// The statistics that read the digest depend on one operation that makes it: it reads every session in
    /// one scan on the first run, and on later runs of the same runner catches up with the changes saved since
    /// (a watched report); then a statistic none of whose sessions changed keeps its result without running.
    public func run(_ entries: [PreparedEntry], environment: ReportEnvironment,
                    onEvent: @escaping @MainActor @Sendable (ReportEvent) -> Void = { _ in }) async -> Report {
        var report = Self.planned(entries, environment: environment)
        await onEvent(.planned(report.entries))
        storeFailure.withLock { $0 = nil }

        let queue = ContextOperationQueue(container: container, name: "report", maxConcurrentOperationCount: maxConcurrentStatistics,
                                          dependencyFailurePolicy: .runDependents)
        running.withLock { $0.append(queue) }
        defer {
            running.withLock { running in
                running.removeAll { $0 === queue }
                if running.isEmpty { running = [] }   // without the room it had
            }
        }
        let events = queue.events
        catchUp.withLock { $0 = nil }
        // A practitioner's digest is small: its statistics run in the digest's own operation, one after the other,
        // where an operation each cost more in threads woken than the statistics themselves (a report of one
        // practitioner of ten years takes about a millisecond). A whole store's run each in an operation of its
        // own, side by side.
        let inDigestOperation = practitioner == nil ? [] : entries.indices.filter { entries[$0].prepared.readsDigest }
        let digestOperation = entries.contains { $0.prepared.readsDigest }
            ? makeDigestOperation(computing: inDigestOperation.map { ($0, entries[$0]) }, environment: environment) : nil
        var indicesByOperation: [ObjectIdentifier: [Int]] = [:]
        if let digestOperation, !inDigestOperation.isEmpty { indicesByOperation[ObjectIdentifier(digestOperation)] = inDigestOperation }
        var operations: [AnyContextOperation] = []
        for (index, entry) in entries.enumerated() where !inDigestOperation.contains(index) {
            let operation = statisticOperation(entry, environment: environment, digest: digestOperation)
            indicesByOperation[ObjectIdentifier(operation)] = [index]
            operations.append(operation)
        }
        queue.addOperations((digestOperation.map { [$0] } ?? []) + operations)

        var remaining = entries.count
        for await event in events where remaining > 0 {
            // The digest's failure too: the statistics that read it fail only with a word about it.
            if case .failed(let error as StoreError) = event.kind { storeFailure.withLock { $0 = $0 ?? error } }
            guard let indices = indicesByOperation[ObjectIdentifier(event.operation)] else { continue }
            for index in indices {
                let outcome: ReportOutcome
                switch event.kind {
                case .enqueued: continue
                case .started: outcome = .running(progress: nil)
                case .progress(let progress): outcome = .running(progress: progress.fractionCompleted)
                case .finished(let pass as DigestPass):
                    switch pass.results[index] {
                    case .success(let result)?: outcome = .finished(result)
                    case .failure(let error)?:
                        if let error = error as? StoreError { storeFailure.withLock { $0 = $0 ?? error } }
                        outcome = .failed(message: Self.message(for: error))
                    case nil: outcome = .failed(message: "the statistic returned no result")
                    }
                case .finished(let value):
                    outcome = (value as? StatisticResult).map(ReportOutcome.finished) ?? .failed(message: "the statistic returned no result")
                case .failed(let error): outcome = .failed(message: Self.message(for: error))
                case .cancelled: outcome = .cancelled
                }
                report.entries[index].outcome = outcome
                await onEvent(.updated(index: index, outcome))
                if case .running = outcome { continue }
                remaining -= 1
            }
            if remaining == 0 { break }
        }
        // Every statistic has read the digest's summaries: the digest is kept for the next run without them.
        keptDigest?.releaseSummaries()
        await onEvent(.completed(report))
        return report
    }

    /// The report `entries` make from the digest as it is kept, without reading the store or catching up: a report
    /// service makes a held report again this way for another format, also while the store is away. The outcomes of
    /// the statistics that read the store come from `storeOutcomes` (by entry index); `nil` when a statistic reads
    /// the digest and none is kept. Run it where no run of this runner is under way (a service's lane).
    func reportFromKeptDigest(_ entries: [PreparedEntry], environment: ReportEnvironment,
                              storeOutcomes: [Int: ReportOutcome], notice: String?) -> Report? {
        let digest = keptDigest
        if digest == nil, entries.contains(where: { $0.prepared.readsDigest }) { return nil }
        var report = Self.planned(entries, environment: environment)
        report.notice = notice
        for (index, entry) in entries.enumerated() {
            guard let digest, entry.prepared.readsDigest else {
                report.entries[index].outcome = storeOutcomes[index] ?? .failed(message: "the statistic reads the store; its result was not kept")
                continue
            }
            do {
                report.entries[index].outcome = try entry.prepared.compute(digest: digest).map(ReportOutcome.finished)
                    ?? .failed(message: "the statistic returned no result")
            } catch {
                report.entries[index].outcome = .failed(message: Self.message(for: error))
            }
        }
        digest?.releaseSummaries()
        return report
    }

    /// The report of `entries` before any has run: each waiting, in manifest order.
    private static func planned(_ entries: [PreparedEntry], environment: ReportEnvironment) -> Report {
        Report(asOf: environment.asOf, timeZone: environment.timeZone, entries: entries.map { entry in
            let description = entry.statistic.description
            return ReportEntry(id: entry.id, name: entry.name, title: description.name, presentation: description.presentation,
                               outcome: .waiting)
        })
    }

    /// The operation that hands the digest to the statistics: the kept one brought up to date, or a new one; then
    /// it computes the statistics `computing` (by their index in the report) from it, each failure in its own result.
    private func makeDigestOperation(computing statistics: [(index: Int, entry: PreparedEntry)],
                                     environment: ReportEnvironment) -> ContextOperation<DigestPass> {
        ContextOperation(identifier: "digest", priority: .high) { [self] context, operation in
            var pass = try readDigest(context)
            guard !statistics.isEmpty else { return pass }
            try scopeToPractitioner(context)
            for (index, entry) in statistics {
                try operation.checkCancellation()
                do {
                    pass.results[index] = .success(try computeFromDigest(entry, environment: environment, pass: pass, context: context))
                } catch {
                    pass.results[index] = .failure(error)
                }
            }
            return pass
        }
    }

    /// The digest for a run: the kept one brought up to date, or a new one.
    private func readDigest(_ context: isolated ObjectContext) throws -> DigestPass {
        if let digest = kept.withLock({ $0.digest }), let update = try catchUp(digest, in: context) {
            return DigestPass(digest: digest, update: update)
        }
        // The same read transaction for the change log's position and the rows, so that they agree.
        return try context.withPinnedSnapshot {
            let digest = try practitioner.map { try SessionDigest(in: context, practitioner: $0) } ?? SessionDigest(in: context)
            log("digest: read \(digest.count) session(s) in one scan")
            kept.withLock { $0 = (digest, [:]) }
            return DigestPass(digest: digest, update: nil)
        }
    }

    /// How many read transactions a catch-up takes at most while the change log's read says it may be behind.
    static let catchUpReads = 3

    /// Brings the kept `digest` up to date with the change log, each read in one read transaction (the change log
    /// and the rows agree); `nil` when it must be read again whole. A read held back by a transaction that ended
    /// meanwhile (``DigestUpdate/mayBeBehind``) is followed by another in a new transaction, so that a report
    /// made after a commit it was told of does not miss that commit.
    private func catchUp(_ digest: SessionDigest, in context: isolated ObjectContext) throws -> DigestUpdate? {
        var combined: DigestUpdate?
        for _ in 0..<Self.catchUpReads where combined?.mayBeBehind ?? true {
            switch try context.withPinnedSnapshot({ try digest.catchUp(in: context) }) {
            case .updated(let update):
                combined = combined.map { $0.followed(by: update) } ?? update
            case .rebuild(let reason):
                log("digest: \(reason)")
                return nil
            }
        }
        if let combined {
            log("digest: caught up with \(combined.changeSets) change set(s), \(combined.sessions) session(s)")
            catchUp.withLock { $0 = combined }
        }
        return combined
    }

    /// The operation of one statistic: from the digest when it reads it (reusing its last result when none of
    /// its inputs changed), else from the store in one read transaction of its own.
    private func statisticOperation(_ entry: PreparedEntry, environment: ReportEnvironment,
                                    digest digestOperation: ContextOperation<DigestPass>?) -> ContextOperation<StatisticResult> {
        guard let digestOperation, entry.prepared.readsDigest else {
            let prepared = entry.prepared
            // One read transaction for the whole computation: it never sees half of a concurrent write.
            return ContextOperation(identifier: entry.name) { [self] context, _ in
                try scopeToPractitioner(context)
                return try context.withPinnedSnapshot { try prepared.compute(digest: nil, context: context) }
            }
        }
        let operation = ContextOperation<StatisticResult>(identifier: entry.name) { [self] context, operation in
            try scopeToPractitioner(context)
            // A failed or cancelled digest's own error is this statistic's: it says what happened in the store.
            let pass = try operation.outcome(of: digestOperation)?.get() ?? operation.result(of: digestOperation)
            return try computeFromDigest(entry, environment: environment, pass: pass, context: context)
        }
        operation.addDependency(digestOperation)
        return operation
    }

    /// A statistic from the digest, reusing its last result when none of its inputs changed, and kept for the next run.
    private func computeFromDigest(_ entry: PreparedEntry, environment: ReportEnvironment, pass: DigestPass,
                                   context: isolated ObjectContext) throws -> StatisticResult {
        if let update = pass.update,
           let reused = kept.withLock({ $0.results[entry.name] })?.reusable(for: entry, environment: environment, update: update) {
            return reused
        }
        let result = try entry.prepared.compute(digest: pass.digest, context: context)
        kept.withLock { kept in
            guard keepsResults, kept.digest === pass.digest else { return }
            kept.results[entry.name] = KeptResult(entry, environment: environment, result: result)
        }
        return result
    }

    /// Scopes a statistic's context to the practitioner reported on, if any: the store then applies it to every
    /// statement the statistic makes (built-in, custom or from an outside module), so it reads their sessions only.
    private func scopeToPractitioner(_ context: isolated ObjectContext) throws {
        guard let practitioner else { return }
        context.setScope(try .practitioner(practitioner))
    }

    static func message(for error: any Error) -> String {
        (error as? any LocalizedError)?.errorDescription ?? String(describing: error)
    }
}
