import Foundation
import PracticeLog
import PropertyBased
import StillpointCatalog
import StillpointCore
import StillpointReport
import StillpointSQLite
import StillpointStatistics
import StillpointTestSupport
import Testing
import StillpointManifest

/// The property of issue 23's "Done when": a practitioner's report, kept current by ``PractitionerReports``
/// through random inserts, updates, moves, deletes, import runs replaced and practitioners removed, equals the
/// report of a store holding only that practitioner's sessions. On SQLite and PostgreSQL.
@Suite("a practitioner's report equals the report of their sessions alone", .serialized)
struct PractitionerReportsPropertyTests {

    static let practitioners = ["alice", "bob", "carol"]
    static let asOf = Date(timeIntervalSince1970: 1_718_000_000)  // 2024-06-10T06:13:20Z

    /// Built-in statistics of the digest and a custom one, over the sessions of the last 40 days.
    static let manifest = """
        version: 1
        time_zone: Europe/Berlin
        custom_statistics:
          yoga_time: {function: sum, attribute: duration, where: "kind == 'yoga'"}
        statistics:
          - id: session_count
          - id: total_time
          - id: median_session_time
          - id: longest_session
          - id: active_days
          - id: current_streak
          - id: longest_streak
          - id: sessions_by_weekday
          - id: sessions_by_hour
          - id: yoga_time
        """

    /// One step of a random history, decoded from a number.
    enum Step: CustomStringConvertible {
        case upsert(String, key: String, day: Int, minutes: Int, kind: String)
        case move(String, key: String, to: String)
        case delete(String, key: String)
        case importReplaced(String, keys: [String])
        case removePractitioner(String)

        init(_ number: UInt32) {
            let practitioner = PractitionerReportsPropertyTests.practitioners[Int(number / 7 % 3)]
            let key = "k\(number / 21 % 6)"
            switch number % 7 {
            case 0, 1, 2:
                self = .upsert(practitioner, key: key, day: Int(number / 126 % 40), minutes: 5 + Int(number / 5_040 % 60),
                               kind: number / 302_400 % 2 == 0 ? "yoga" : "meditation")
            case 3: self = .move(practitioner, key: key, to: PractitionerReportsPropertyTests.practitioners[Int(number / 126 % 3)])
            case 4: self = .delete(practitioner, key: key)
            case 5: self = .importReplaced(practitioner, keys: (0..<6).filter { number / 126 >> $0 & 1 == 1 }.map { "k\($0)" })
            default: self = .removePractitioner(practitioner)
            }
        }

        var description: String {
            switch self {
            case .upsert(let p, let key, let day, let minutes, let kind): "upsert \(p) \(key) day \(day) \(minutes) min \(kind)"
            case .move(let p, let key, let to): "move \(p) \(key) to \(to)"
            case .delete(let p, let key): "delete \(p) \(key)"
            case .importReplaced(let p, let keys): "import for \(p) replacing the last: \(keys)"
            case .removePractitioner(let p): "remove \(p)"
            }
        }
    }

    @Test(arguments: PracticeStore.all)
    func reportsKeptCurrentEqualReportsOfEachPractitionerAlone(_ store: PracticeStore) async throws {
        let catalog = try BuiltInStatistics.catalog()
        var manifest = try Manifest(yaml: Self.manifest)
        manifest.environment.asOf = Self.asOf
        let entries = try manifest.prepare(catalog: catalog)
        let environment = manifest.environment
        await propertyCheck(count: store == .sqlite ? 25 : 12, input: Gen<UInt32>.value().array(of: 4...24)) { numbers in
            let container = try store.open(schema: Session.schema)
            defer { try? container.close() }
            let reports = PractitionerReports(container: container, maxConcurrentStatistics: 2)
            for (index, number) in numbers.enumerated() {
                try await Self.apply(Step(number), to: container)
                // Now and then, and at the end: the held digests catch up over several steps or one.
                if index % 3 == 2 || index == numbers.count - 1 {
                    for practitioner in Self.practitioners {
                        let kept = try await reports.report(for: practitioner, entries, environment: environment)
                        let alone = try await Self.reportOfSessionsAlone(of: practitioner, in: container, entries, environment)
                        #expect(kept.map(Self.outcomes) == alone.map(Self.outcomes),
                                "\(practitioner) after \(numbers.prefix(index + 1).map { Step($0).description })")
                    }
                }
            }
        }
    }

    static func outcomes(_ report: Report) -> [String: ReportOutcome] {
        Dictionary(uniqueKeysWithValues: report.entries.map { ($0.name, $0.outcome) })
    }

    /// The report of a new in-memory store holding a copy of `practitioner`'s sessions; `nil` when the store has
    /// no such practitioner.
    static func reportOfSessionsAlone(of practitioner: String, in container: PersistentContainer, _ entries: [PreparedEntry],
                                      _ environment: ReportEnvironment) async throws -> Report? {
        typealias Row = (start: Date, duration: Double, kind: String, key: String)
        let rows: [Row]? = try await container.newBackgroundContext().perform { context in
            guard try context.count(for: FetchRequest(Practitioner.self, predicate: Practitioner.id == practitioner)) > 0 else { return nil }
            let sessions = try context.fetch(FetchRequest(Session.self, predicate: try FetchPredicate("practitioner.id == %@", practitioner)))
            return sessions.map { ($0[Session.start], $0[Session.duration], $0[Session.kind], $0[Session.key]) }
        }
        guard let rows else { return nil }
        let alone = try PersistentContainer(schema: Session.schema, location: .inMemory)
        defer { try? alone.close() }
        try await alone.performBackgroundTask { context in
            let me = try Practitioners.object(Practitioner.defaultID, in: context)
            for row in rows {
                let session = context.insert(Session.self)
                try session.set(Session.practitioner, to: me)
                session[Session.start] = row.start
                session[Session.duration] = row.duration
                session[Session.kind] = row.kind
                session[Session.key] = row.key
            }
            try await context.save()
        }
        return await ReportRunner(container: alone, maxConcurrentStatistics: 2).run(entries, environment: environment)
    }

    static func apply(_ step: Step, to container: PersistentContainer) async throws {
        switch step {
        case .upsert(let practitioner, let key, let day, let minutes, let kind):
            try await container.performBackgroundTask { context in
                let session = try session(key, of: practitioner, in: context) ?? {
                    let session = context.insert(Session.self)
                    try session.set(Session.practitioner, to: try Practitioners.object(practitioner, in: context))
                    session[Session.key] = key
                    return session
                }()
                session[Session.start] = asOf.addingTimeInterval(-Double(day) * 86_400 - Double(minutes) * 97)
                session[Session.duration] = Double(minutes * 60)
                session[Session.kind] = kind
                try await context.save()
            }
        case .move(let practitioner, let key, let other):
            try await container.performBackgroundTask { context in
                // A key is unique per practitioner: the move happens only where the other has no such session.
                guard let moved = try session(key, of: practitioner, in: context), try session(key, of: other, in: context) == nil else { return }
                try moved.set(Session.practitioner, to: try Practitioners.object(other, in: context))
                try await context.save()
            }
        case .delete(let practitioner, let key):
            try await container.performBackgroundTask { context in
                guard let deleted = try session(key, of: practitioner, in: context) else { return }
                try context.delete(deleted)
                try await context.save()
            }
        case .importReplaced(let practitioner, let keys):
            try await importReplacingTheLast(keys, for: practitioner, into: container)
        case .removePractitioner(let practitioner):
            _ = try await Practitioners.remove(practitioner, from: container)
        }
    }

    private static func session(_ key: String, of practitioner: String, in context: isolated ObjectContext) throws -> ManagedObject? {
        try context.fetch(FetchRequest(Session.self, predicate: try FetchPredicate("key == %@ AND practitioner.id == %@", key, practitioner))).first
    }

    /// An import of the same file again, as `import` records it: a new run reads the sessions `keys` (made when
    /// missing), and replaces the earlier runs of the file, removing the sessions only they read.
    private static func importReplacingTheLast(_ keys: [String], for practitioner: String, into container: PersistentContainer) async throws {
        let owner = try await Practitioners.rowID(of: practitioner, in: container)
        let run = try await ImportRuns.begin(file: "\(practitioner).csv", contentHash: "hash-\(practitioner)", format: "csv", options: "",
                                             practitioner: owner, in: container)
        try await container.performBackgroundTask { context in
            let runObject = try context.existingObject(with: ObjectID(entity: ImportRun.entity, rowID: run))
            for (offset, key) in keys.enumerated() {
                let read = try session(key, of: practitioner, in: context) ?? {
                    let session = context.insert(Session.self)
                    try session.set(Session.practitioner, to: try context.existingObject(with: ObjectID(entity: Practitioner.entity, rowID: owner)))
                    session[Session.key] = key
                    session[Session.start] = asOf.addingTimeInterval(-Double(offset + 1) * 30_000)
                    session[Session.duration] = 1_200
                    session[Session.kind] = "meditation"
                    return session
                }()
                try read.add(runObject, to: Session.importRuns)
            }
            try await context.save()
        }
        try await ImportRuns.finish(run, summary: ImportSummary(), complete: true, in: container)
        _ = try await ImportRuns.replaceEarlier(than: run, in: container)
    }
}
