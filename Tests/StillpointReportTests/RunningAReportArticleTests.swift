import Foundation
import PracticeLog
import StillpointCatalog
import StillpointCore
import StillpointManifest
import StillpointReport
import StillpointSQLite
import StillpointStatistics
import Testing

/// The examples of `StillpointReport.docc`'s articles, run over a store of a few sessions: its landing page and
/// "Running a report".
@Suite struct RunningAReportArticleTests {
    static let asOf = Date(timeIntervalSince1970: 1_750_000_000)

    static func makeContainer(sessions: Int) async throws -> PersistentContainer {
        let container = try PersistentContainer(schema: Session.schema, location: .inMemory)
        try await addSessions(sessions, to: container, from: 0)
        return container
    }

    static func addSessions(_ count: Int, to container: PersistentContainer, from first: Int) async throws {
        try await container.performBackgroundTask { context in
            let practitioner = try Practitioners.object(Practitioner.defaultID, in: context)
            for index in first..<(first + count) {
                let session = context.insert(Session.self)
                try session.set(Session.practitioner, to: practitioner)
                session[Session.start] = asOf.addingTimeInterval(Double(-86_400 * (index + 1)))
                session[Session.duration] = 600
                session[Session.kind] = "meditation"
                session[Session.key] = "article-\(index)"
            }
            try await context.save()
        }
    }

    static func sessionCount(_ report: Report) -> Double? {
        guard case .finished(let result)? = report.entries.first(where: { $0.id == "session_count" })?.outcome,
              case .quantity(let value, _) = result.value else { return nil }
        return value
    }

    @Test @MainActor func theLandingPageRunsAndRenders() async throws {
        let container = try await Self.makeContainer(sessions: 3)
        var manifest = try Manifest(yaml: "version: 1\nstatistics: [session_count]\n")
        manifest.environment.asOf = Self.asOf
        let entries = try manifest.prepare(catalog: try BuiltInStatistics.catalog())
        let runner = ReportRunner(container: container)
        let report = await runner.run(entries, environment: manifest.environment)
        let text = ReportRenderers.builtIn.renderer(for: .markdown)?.render(report)
        #expect(text?.contains("3") == true)
        #expect(Self.sessionCount(report) == 3)
    }

    @Test @MainActor func fromAManifestToAReportAndAgainFromTheDigest() async throws {
        let container = try await Self.makeContainer(sessions: 4)
        let asOf = Self.asOf
        var manifest = try Manifest(yaml: "version: 1\nstatistics: [session_count, total_time, longest_streak]\n")
        manifest.environment.asOf = asOf
        let entries = try manifest.prepare(catalog: try BuiltInStatistics.catalog())
        let runner = ReportRunner(container: container)
        let report = await runner.run(entries, environment: manifest.environment) { event in
            print(event)   // on the main actor, as each statistic is planned, starts and finishes
        }
        #expect(report.succeeded && Self.sessionCount(report) == 4)

        try await digestCatchesUp(runner, entries, manifest, container)
    }

    @MainActor private func digestCatchesUp(_ runner: ReportRunner, _ entries: [PreparedEntry], _ manifest: Manifest,
                                            _ container: PersistentContainer) async throws {
        let first = await runner.run(entries, environment: manifest.environment)
        // ... sessions are saved ...
        let second = await runner.run(entries, environment: manifest.environment)   // reads only the changes
        #expect(Self.sessionCount(first) == Self.sessionCount(second))
        try await Self.addSessions(2, to: container, from: 100)
        #expect(Self.sessionCount(await runner.run(entries, environment: manifest.environment)) == 6)
    }

    struct TSVReportRenderer: ReportRenderer {
        let format = ReportFormat(name: "tsv", fileExtension: "tsv")

        func render(_ report: Report) -> String {
            report.entries.map { "\($0.id)\t\($0.title)" }.joined(separator: "\n") + "\n"
        }
    }

    @Test @MainActor func aRendererOfItsOwnAddsAFormat() async throws {
        let container = try await Self.makeContainer(sessions: 1)
        let entries = try Manifest(yaml: "version: 1\nstatistics: [session_count]\n").prepare(catalog: try BuiltInStatistics.catalog())
        let report = await ReportRunner(container: container).run(entries, environment: ReportEnvironment())
        var renderers = ReportRenderers.builtIn
        try renderers.add(TSVReportRenderer())
        let tsvManifest = try Manifest(yaml: "version: 1\nstatistics: [session_count]\noutput: {formats: [tsv]}\n",
                                       formats: renderers.formats)
        let tsv = renderers.renderer(for: tsvManifest.output.formats[0])?.render(report)
        #expect(tsv?.hasPrefix("session_count\t") == true)
        #expect(throws: ReportRendererError.self) { try renderers.add(TSVReportRenderer()) }
    }
}
