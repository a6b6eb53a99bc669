import Foundation
import PracticeLog
import StillpointCatalog
import StillpointCore
import StillpointPostgres
import StillpointReport
import StillpointStatistics
import StillpointTestSupport
import Testing
import StillpointManifest

/// The batch job (AllPractitionerReports): one report per practitioner in id order, from one ordered scan, each
/// equal to that practitioner's report kept by PractitionerReports. On SQLite and PostgreSQL.
@Suite("every practitioner's report in one scan", .serialized)
struct AllPractitionerReportsTests {
    typealias Property = PractitionerReportsPropertyTests

    @Test(arguments: PracticeStore.all)
    func eachPractitionerGetsTheirOwnReportInIDOrder(_ store: PracticeStore) async throws {
        let container = try store.open(schema: Session.schema)
        defer { try? container.close() }
        // Written out of id order, interleaved, with a practitioner who has no session.
        let steps: [Property.Step] = [
            .upsert("zoe", key: "z1", day: 1, minutes: 30, kind: "yoga"), .upsert("bob", key: "b1", day: 2, minutes: 10, kind: "meditation"),
            .upsert("zoe", key: "z2", day: 2, minutes: 20, kind: "yoga"), .upsert("alice", key: "a1", day: 0, minutes: 15, kind: "yoga"),
            .upsert("bob", key: "b2", day: 0, minutes: 25, kind: "yoga"), .upsert("zoe", key: "z3", day: 5, minutes: 40, kind: "meditation"),
        ]
        for step in steps { try await Property.apply(step, to: container) }
        try await Practitioners.add("carol", in: container)

        var manifest = try Manifest(yaml: Property.manifest)
        manifest.environment.asOf = Property.asOf
        let entries = try manifest.prepare(catalog: try BuiltInStatistics.catalog())
        let reports = LockedState<[(String, Report)]>([])
        try await AllPractitionerReports.run(entries, environment: manifest.environment, in: container) { id, report in
            reports.withLock { $0.append((id, report)) }
        }
        let made = reports.withLock { $0 }
        #expect(made.map(\.0) == ["alice", "bob", "carol", "zoe"])
        let kept = PractitionerReports(container: container)
        for (id, report) in made {
            let expected = try #require(try await kept.report(for: id, entries, environment: manifest.environment))
            #expect(Property.outcomes(report) == Property.outcomes(expected), "\(id)")
        }
        let counts = made.map { _, report in
            report.entries.first { $0.id == "session_count" }.flatMap { entry -> Double? in
                if case .finished(let result) = entry.outcome, case .quantity(let value, _) = result.value { value } else { nil }
            }
        }
        #expect(counts == [1, 2, 0, 3])
    }

    /// The one scan writes byte for byte the JSON lines of one report per practitioner made on its own (a cold
    /// report, through the practitioner's scope), in the store's order of their ids: ids that sort unusually (upper
    /// case, digits as text, a space, letters past ASCII), added out of that order, one without a session, and
    /// sessions of a source and a zone of their own, read in place.
    @Test(arguments: PracticeStore.all)
    func theOneScanWritesTheLinesOfOneReportPerPractitioner(_ store: PracticeStore) async throws {
        let container = try store.open(schema: Session.schema)
        defer { try? container.close() }
        let ids = ["zoë", "Zed", "10", "9", "ålex", "alice", "a b"]
        for (number, id) in ids.enumerated() where id != "Zed" {
            for day in 0...number {
                try await Property.apply(.upsert(id, key: "\(id)-\(day)", day: day * 3 % 11, minutes: 5 + number * 7 + day,
                                                 kind: day.isMultiple(of: 2) ? "yoga" : "meditation"), to: container)
            }
        }
        try await Practitioners.add("Zed", in: container)
        try await container.performBackgroundTask { context in
            for (index, id) in ["zoë", "9"].enumerated() {
                let session = context.insert(Session.self)
                try session.set(Session.practitioner, to: try Practitioners.object(id, in: context))
                session[Session.key] = "\(id)-zoned"
                session[Session.start] = Property.asOf.addingTimeInterval(-5_000 - Double(index) * 86_400)
                session[Session.duration] = 900
                session[Session.source] = "insight-timer"
                session[Session.timeZone] = index == 0 ? "Asia/Kolkata" : "America/New_York"
            }
            try await context.save()
        }

        var manifest = try Manifest(yaml: Property.manifest)
        manifest.environment.asOf = Property.asOf
        let entries = try manifest.prepare(catalog: try BuiltInStatistics.catalog())
        let lines = LockedState<[String]>([])
        try await AllPractitionerReports.run(entries, environment: manifest.environment, in: container) { id, report in
            lines.withLock { $0.append(JSONReportRenderer().line(report, practitioner: id)) }
        }
        let inIDOrder = try await Practitioners.list(in: container).map(\.id)
        #expect(Set(inIDOrder) == Set(ids))
        var alone: [String] = []
        for id in inIDOrder {
            let report = try #require(try await PractitionerReports(container: container).report(for: id, entries, environment: manifest.environment))
            alone.append(JSONReportRenderer().line(report, practitioner: id))
        }
        #expect(lines.withLock { $0 } == alone)
        #expect(alone.contains { $0.contains("\"practitioner\":\"Zed\"") })
    }

    /// A statistic that reads the store (not the digest) runs scoped to each practitioner in turn, while the one scan
    /// of every session goes on: it counts their own sessions only, none for a practitioner without one.
    @Test(arguments: PracticeStore.all)
    func aStatisticThatReadsTheStoreCountsEachPractitionersSessionsOnly(_ store: PracticeStore) async throws {
        let container = try store.open(schema: Session.schema)
        defer { try? container.close() }
        try await Practitioners.add("alice", in: container)
        let steps: [Property.Step] = [
            .upsert("bob", key: "b1", day: 2, minutes: 10, kind: "meditation"), .upsert("zoe", key: "z1", day: 1, minutes: 30, kind: "yoga"),
            .upsert("bob", key: "b2", day: 0, minutes: 25, kind: "yoga"), .upsert("zoe", key: "z2", day: 2, minutes: 20, kind: "yoga"),
            .upsert("zoe", key: "z3", day: 5, minutes: 40, kind: "meditation"),
        ]
        for step in steps { try await Property.apply(step, to: container) }
        try await Practitioners.add("zz-last", in: container)

        let manifest = try Manifest(yaml: "version: 1\nstatistics:\n  - id: store_count\n")
        let entries = try manifest.prepare(catalog: try StatisticCatalog(modules: [PractitionerReportsTests.StoreCountModule.self]))
        let counts = LockedState<[String: ReportOutcome]>([:])
        try await AllPractitionerReports.run(entries, environment: manifest.environment, in: container) { id, report in
            counts.withLock { $0[id] = report.entries.first?.outcome }
        }
        let expected: [String: Double] = ["alice": 0, "bob": 2, "zoe": 3, "zz-last": 0]
        #expect(counts.withLock { $0 } == expected.mapValues { .finished(StatisticResult(.quantity($0, .count))) })
    }

    /// On PostgreSQL the scan streams through a cursor: with two rows per `FETCH` (batch boundaries inside every
    /// practitioner's sessions and between practitioners, one of them without a session), every report is the one
    /// the default batch size makes, in the same order, and the rows came in many batches, not one result.
    @Test(.enabled(if: PracticeStore.all.contains(.postgres)))
    func thePostgreSQLScanGivesTheSameReportsAcrossBatchBoundaries() async throws {
        let place = try PracticeStore.postgres.makePlace()
        let writer = try PracticeStore.postgres.open(place, schema: Session.schema)
        defer { try? writer.close() }
        let steps: [Property.Step] = [
            .upsert("zoe", key: "z1", day: 1, minutes: 30, kind: "yoga"), .upsert("bob", key: "b1", day: 2, minutes: 10, kind: "meditation"),
            .upsert("zoe", key: "z2", day: 2, minutes: 20, kind: "yoga"), .upsert("alice", key: "a1", day: 0, minutes: 15, kind: "yoga"),
            .upsert("bob", key: "b2", day: 0, minutes: 25, kind: "yoga"), .upsert("zoe", key: "z3", day: 5, minutes: 40, kind: "meditation"),
            .upsert("bob", key: "b3", day: 3, minutes: 45, kind: "yoga"), .upsert("alice", key: "a2", day: 4, minutes: 5, kind: "meditation"),
        ]
        for step in steps { try await Property.apply(step, to: writer) }
        try await Practitioners.add("carol", in: writer)

        var manifest = try Manifest(yaml: Property.manifest)
        manifest.environment.asOf = Property.asOf
        let entries = try manifest.prepare(catalog: try BuiltInStatistics.catalog())
        func reports(rowsPerFetch: Int) async throws -> (reports: [(String, [String: ReportOutcome])], statements: Int) {
            let store = try PostgresStore(uri: place, schema: Session.schema, access: .readOnly, rowsPerFetch: rowsPerFetch)
            let container = PersistentContainer(store: store)
            defer { try? container.close() }
            let made = LockedState<[(String, [String: ReportOutcome])]>([])
            let before = store.statements.count
            try await AllPractitionerReports.run(entries, environment: manifest.environment, in: container) { id, report in
                made.withLock { $0.append((id, Property.outcomes(report))) }
            }
            return (made.withLock { $0 }, store.statements.count - before)
        }
        let whole = try await reports(rowsPerFetch: PostgresCursor.chunk)
        let batched = try await reports(rowsPerFetch: 2)
        #expect(batched.reports.map(\.0) == ["alice", "bob", "carol", "zoe"])
        #expect(batched.reports.map(\.0) == whole.reports.map(\.0))
        for ((id, outcomes), (_, expected)) in zip(batched.reports, whole.reports) {
            #expect(outcomes == expected, "\(id)")
        }
        // Eight sessions two at a time: five FETCHes (the last one empty) where one was enough.
        #expect(batched.statements - whole.statements == 4)
    }
}
