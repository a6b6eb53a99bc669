import Foundation
import PracticeLog
import StillpointCore
import StillpointSQLite
import StillpointStatistics

extension StatisticExample {
    /// Runs the example: its sessions in a fresh in-memory store, the statistic prepared with its parameters.
    ///
    /// The conformance test runs every example of every statistic this way.
    public func run(_ statistic: any Statistic, environment: ReportEnvironment = ReportEnvironment()) async throws -> StatisticResult {
        let container = try await Self.store(holding: sessions)
        let prepared = try statistic.prepare(StatisticParameters(statistic: statistic.id, values: parameters, environment: environment))
        return try await container.newBackgroundContext().perform { context in try prepared.compute(context) }
    }

    /// A fresh in-memory store holding `sessions`.
    ///
    /// - Throws: ``ExampleSessionError`` for a session whose start could not be read.
    public static func store(holding sessions: [ExampleSession]) async throws -> PersistentContainer {
        if let unreadable = sessions.lazy.compactMap(\.unreadableStart).first { throw ExampleSessionError(start: unreadable) }
        let container = try PersistentContainer(schema: Session.schema, location: .inMemory)
        try await container.performBackgroundTask { context in
            var runs: [String: ManagedObject] = [:]
            let practitioner = try Practitioners.object(Practitioner.defaultID, in: context)
            for (index, example) in sessions.enumerated() {
                let session = context.insert(Session.self)
                try session.set(Session.practitioner, to: practitioner)
                session[Session.start] = example.start
                session[Session.duration] = example.duration
                session[Session.kind] = example.kind
                session[Session.source] = example.source
                session[Session.timeZone] = example.timeZone
                session[Session.key] = "example-\(index)"
                if let file = example.importedFrom {
                    let run = try runs[file] ?? Self.importRun(of: file, by: practitioner, in: context)
                    runs[file] = run
                    try session.add(run, to: Session.importRuns)
                }
            }
            try await context.save()
        }
        return container
    }

    private static func importRun(of file: String, by practitioner: ManagedObject, in context: isolated ObjectContext) throws -> ManagedObject {
        let run = context.insert(ImportRun.self)
        try run.set(ImportRun.practitioner, to: practitioner)
        run[ImportRun.file] = file
        run[ImportRun.contentHash] = "example-\(file)"
        run[ImportRun.format] = "csv"
        run[ImportRun.startedAt] = Date(timeIntervalSince1970: 0)
        run[ImportRun.isComplete] = true
        return run
    }
}
