import Foundation
import PracticeLog
import StillpointCore
import StillpointManifest
import StillpointStatistics

/// Keeps a report current while its store changes: `stillpoint report --watch`'s loop, as a library.
///
/// Change sets that arrive while a refresh runs are merged (``ChangeCoalescer``): at most one refresh is in
/// flight, and the next one covers every change since, so a large import costs a few refreshes, not one per
/// change set. A refresh runs only the statistics of the entities that changed; of those that read the digest,
/// the runner runs again only the ones whose sessions changed.
///
/// ```swift
/// let watch = StoreWatch(container)            // before the first report, so no change is missed
/// let report = await runner.run(entries, environment: manifest.environment)
/// let last = try await ReportWatch(runner: runner, manifest: manifest, modules: catalog, entries: entries)
///     .follow(watch, from: report) { refreshed in print(TextReportRenderer().render(refreshed)) }
/// // watch.stop() from elsewhere ends it; `last` is the report delivered last, always complete.
/// ```
public struct ReportWatch: Sendable {
    public let runner: ReportRunner
    /// The manifest the report was made from: each refresh prepares it again, as of the refresh.
    public let manifest: Manifest
    public let modules: ModuleCatalog
    /// The entries of the first report, in its order: a refresh replaces the entries it ran, in place.
    public let entries: [PreparedEntry]
    /// Whether the manifest's `as_of` is kept (`--as-of`); otherwise each refresh is made as of ``now``.
    public var pinsAsOf: Bool
    /// The instant a refresh is made as of when ``pinsAsOf`` is false.
    public var now: @Sendable () -> Date
    /// Where a line on each refresh goes: what changed, and how many statistics run again.
    public var log: @Sendable (String) -> Void

    public init(runner: ReportRunner, manifest: Manifest, modules: ModuleCatalog, entries: [PreparedEntry],
                pinsAsOf: Bool = false, now: @escaping @Sendable () -> Date = Date.init,
                log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.runner = runner
        self.manifest = manifest
        self.modules = modules
        self.entries = entries
        self.pinsAsOf = pinsAsOf
        self.now = now
        self.log = log
    }

    /// Refreshes `report` each time `watch` brings changes that affect it, and hands each refreshed report to
    /// `deliver`, until the watch's changes end (``StoreWatch/stop()``) or `isStopped` says so; returns the
    /// report delivered last (`report` when none was), which is always complete.
    ///
    /// `isStopped` is asked before and after each refresh: a refresh it stopped part-way (the runner cancelled
    /// by Ctrl-C) is not delivered, and the report delivered before it stands.
    ///
    /// - Throws: what `deliver` throws, or ``ManifestErrors`` when the manifest no longer prepares.
    public func follow(_ watch: StoreWatch, from report: Report, isStopped: () -> Bool = { false },
                       deliver: (Report) async throws -> Void) async throws -> Report {
        let coalescer = ChangeCoalescer()
        let forwarder = Task {
            for await changeSet in watch.changes { coalescer.add(changeSet) }
            coalescer.finish()
        }
        defer { forwarder.cancel() }
        var report = report
        while let pending = await coalescer.next() {
            if isStopped() { break }
            let affected = entries.indices.filter { !entries[$0].prepared.entities.isDisjoint(with: pending.entityNames) }
            guard !affected.isEmpty else { continue }
            log("\(pending.changeSetCount) change(s) through \(pending.lastSequence) by \(pending.authors.joined(separator: ", ")): refreshing \(affected.count) statistics")
            var current = manifest
            if !pinsAsOf { current.environment.asOf = now() }
            let environment = current.environment
            let prepared = try current.prepare(modules: modules)
            let refreshed = await runner.run(affected.map { prepared[$0] }, environment: environment)
            if isStopped() { break }
            // A report of one practitioner is not rendered again for changes that are none of theirs: the digest, caught
            // up, changed none of their sessions, so the statistics reading it kept their results; those reading the
            // store (scoped to them) may skip too when only sessions changed.
            let readsDigestOnly = affected.allSatisfy { entries[$0].prepared.readsDigest }
            if runner.practitioner != nil, runner.lastCatchUp?.changedAnySession == false,
               readsDigestOnly || pending.entityNames == [Session.entity.name] {
                log("none of the practitioner's sessions changed: the report stands")
                continue
            }
            for (position, index) in affected.enumerated() { report.entries[index] = refreshed.entries[position] }
            report.asOf = environment.asOf
            report.notice = try await Report.demoNotice(for: runner.container, asOf: report.asOf)
            try await deliver(report)
        }
        return report
    }
}
