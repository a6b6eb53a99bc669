import Foundation
import PracticeLog
import StillpointCatalog
import StillpointCore
import StillpointManifest
import StillpointReport
import StillpointSQLite
import StillpointStatistics

extension ReportSuite {
    /// The most a refresh after one new session may take, in seconds.
    static let maxRefreshSeconds = 0.020

    /// `report --watch`'s path: a runner that made the default report over the store (untimed) gets one new
    /// session saved into the store (untimed), then makes the report again: the timed part is that second run,
    /// which catches the digest up with the change log and runs only the statistics whose sessions changed. The
    /// baseline is the first, full report of the same runner. After each run the session is removed again, and
    /// the refreshed values are checked against a report made afresh.
    static func measureRefresh(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        guard benchmarkCase.store == .file else {
            throw SessionBench.Failure("the report suite reads a SQLite file store only (--store file)")
        }
        let fixture = try await Fixture.shared.store(sessions: benchmarkCase.n)
        let catalog = try BuiltInStatistics.catalog()
        let container = try PersistentContainer(schema: Session.schema, location: .file(fixture.url))
        defer { try? container.close() }
        var manifest = try Manifest(yaml: DefaultManifest.yaml, file: "DefaultManifest.yaml")
        let entries = try manifest.prepare(catalog: catalog)
        let runner = ReportRunner(container: container)

        let full = await Stopwatch.seconds { _ = await runner.run(entries, environment: manifest.environment) }
        let session = try await container.performBackgroundTask { context in
            let session = context.insert(Session.self)
            try session.set(Session.practitioner, to: try Practitioners.object(Practitioner.defaultID, in: context))
            session[Session.start] = Date().addingTimeInterval(-60)
            session[Session.duration] = 1_200
            session[Session.kind] = "meditation"
            session[Session.key] = "refresh-\(UUID().uuidString)"
            try await context.save()
            return session.objectID
        }
        // As a watched report does: prepared again, as of now.
        manifest.environment.asOf = Date()
        let refreshedEntries = try manifest.prepare(catalog: catalog)
        var refreshed: Report?
        let seconds = await Stopwatch.seconds {
            refreshed = await runner.run(refreshedEntries, environment: manifest.environment)
        }
        let afresh = await ReportRunner(container: container).run(refreshedEntries, environment: manifest.environment)
        try await container.performBackgroundTask { context in
            try context.delete(try context.existingObject(with: session))
            try await context.save()
        }
        guard let refreshed else { throw SessionBench.Failure("the refresh returned no report") }
        for (after, fresh) in zip(refreshed.entries, afresh.entries) where after.outcome != fresh.outcome {
            throw SessionBench.Failure("the refreshed \(after.name) is \(after.outcome), a report made afresh says \(fresh.outcome)")
        }
        return Sample(seconds: seconds, baselineSeconds: full, metrics: ["refresh_ms": seconds * 1_000])
    }
}
