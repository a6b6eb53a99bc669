import Foundation
import PracticeLog
import StillpointCore
import Testing

/// A store written before practitioners existed (schema version 2, written here by this code with that schema)
/// opens with every session and run given to the practitioner `me`, on SQLite and PostgreSQL.
@Suite("the session schema's migration to practitioners")
struct SessionSchemaMigrationTests {
    /// Version 2's sessions: no practitioner, and a key unique in the whole store.
    enum SessionOfVersion2: Entity {
        static let entityName = "Session"
        static let importRuns = ToMany<ImportRunOfVersion2>("importRuns", inverse: "sessions")
        static let entity = EntityDescription(
            "Session",
            attributes: [Session.start, Session.duration, Session.kind, Session.source, Session.timeZone, Session.note, Session.key],
            relationships: [importRuns],
            indexes: [IndexDescription([Session.start]), IndexDescription([Session.kind]), IndexDescription([Session.duration]),
                      IndexDescription([Session.key], isUnique: true)])
    }

    /// Version 2's import runs: no practitioner.
    enum ImportRunOfVersion2: Entity {
        static let entityName = "ImportRun"
        static let sessions = ToMany<SessionOfVersion2>("sessions", inverse: "importRuns")
        static let entity = EntityDescription(
            "ImportRun",
            attributes: [ImportRun.file, ImportRun.contentHash, ImportRun.format, ImportRun.options, ImportRun.startedAt,
                         ImportRun.inserted, ImportRun.updated, ImportRun.unchanged, ImportRun.skipped, ImportRun.isComplete,
                         ImportRun.finishedAt, ImportRun.process],
            relationships: [sessions],
            indexes: [IndexDescription([ImportRun.contentHash])])
    }

    static func versionTwoSchema() throws -> Schema {
        try Schema([SessionOfVersion2.self, ImportRunOfVersion2.self], versions: [SchemaVersion(1), SchemaVersion(2)])
    }

    /// A store of version 2 with three sessions, two of them read by one run.
    private func makeVersionTwoStore(_ store: PracticeStore, sessions: Int = 3) async throws -> String {
        let place = try store.makePlace()
        let container = try store.open(place, schema: try Self.versionTwoSchema())
        try await container.performBackgroundTask { context in
            let run = context.insert(ImportRunOfVersion2.self)
            run[ImportRun.file] = "log.csv"
            run[ImportRun.contentHash] = "abc"
            run[ImportRun.format] = "csv"
            run[ImportRun.startedAt] = Date(timeIntervalSince1970: 1_700_000_000)
            for index in 0..<sessions {
                let session = context.insert(SessionOfVersion2.self)
                session[Session.start] = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 86_400)
                session[Session.duration] = 600
                session[Session.key] = "session-\(index)"
                if index < 2 { try session.add(run, to: SessionOfVersion2.importRuns) }
            }
            try await context.save()
        }
        try container.close()
        return place
    }

    @Test(arguments: PracticeStore.all)
    func everySessionAndRunOfAnOlderStoreBelongsToMe(_ store: PracticeStore) async throws {
        let place = try await makeVersionTwoStore(store)
        let container = try store.open(place, schema: Session.schema)
        defer { try? container.close() }
        let found = try await container.newBackgroundContext().perform { context in
            let practitioners = try context.fetch(FetchRequest(Practitioner.self)).map { $0[Practitioner.id] }
            let sessions = try context.fetch(FetchRequest(Session.self)).map { session in
                (try session[Session.practitioner]?[Practitioner.id], try session[Session.importRuns].count)
            }
            let runs = try context.fetch(FetchRequest(ImportRun.self)).map { run in
                (try run[ImportRun.practitioner]?[Practitioner.id], try run[ImportRun.sessions].count)
            }
            return (practitioners, sessions.map(\.0), sessions.map(\.1).reduce(0, +), runs.map(\.0), runs.map(\.1))
        }
        #expect(found.0 == ["me"])
        #expect(found.1 == ["me", "me", "me"])
        #expect(found.2 == 2, "the links to the run are kept")
        #expect(found.3 == ["me"])
        #expect(found.4 == [2])

        // The key is now unique per practitioner: another practitioner may have session-0 too.
        try await container.performBackgroundTask { context in
            let session = context.insert(Session.self)
            session[Session.start] = Date(timeIntervalSince1970: 1_700_000_000)
            session[Session.duration] = 600
            session[Session.key] = "session-0"
            try session.set(Session.practitioner, to: try Practitioners.object("alice", in: context))
            try await context.save()
        }
        let count = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Session.self)) }
        #expect(count == 4)
    }

    @Test(arguments: PracticeStore.all)
    func anEmptyOlderStoreGetsNoPractitioner(_ store: PracticeStore) async throws {
        let place = try store.makePlace()
        try store.open(place, schema: try Self.versionTwoSchema()).close()
        let container = try store.open(place, schema: Session.schema)
        defer { try? container.close() }
        let count = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Practitioner.self)) }
        #expect(count == 0)
    }

    /// Version 3's practitioners: no token hash.
    enum PractitionerOfVersion3: Entity {
        static let entityName = "Practitioner"
        static let entity = EntityDescription(
            "Practitioner",
            attributes: [Practitioner.id, Practitioner.name, Practitioner.timeZone],
            relationships: [Practitioner.sessions, Practitioner.importRuns],
            indexes: [IndexDescription([Practitioner.id], isUnique: true)])
    }

    static func versionThreeSchema() throws -> Schema {
        try Schema([PractitionerOfVersion3.self, Session.self, ImportRun.self], versions: [SchemaVersion(1), SchemaVersion(2), SchemaVersion(3)])
    }

    /// Version 4: a store of version 3 keeps its practitioners, with no token, and then keeps one hash per token.
    @Test(arguments: PracticeStore.all)
    func practitionersOfAVersionThreeStoreGetNoToken(_ store: PracticeStore) async throws {
        let place = try store.makePlace()
        let older = try store.open(place, schema: try Self.versionThreeSchema())
        try await older.performBackgroundTask { context in
            for (id, name) in [("alice", "Alice"), ("bob", "")] {
                let practitioner = context.insert(PractitionerOfVersion3.self)
                practitioner[Practitioner.id] = id
                practitioner[Practitioner.name] = name
                practitioner[Practitioner.timeZone] = id == "alice" ? "Europe/Berlin" : nil
            }
            try await context.save()
        }
        try older.close()

        let container = try store.open(place, schema: Session.schema)
        defer { try? container.close() }
        let hashes = try await container.newBackgroundContext().perform { context in
            try context.fetch(FetchRequest(Practitioner.self, sortedBy: [.ascending(Practitioner.id)]))
                .map { "\($0[Practitioner.id]) \($0[Practitioner.name]) \($0[Practitioner.tokenHash] ?? "none")" }
        }
        #expect(hashes == ["alice Alice none", "bob  none"])

        let hash = String(repeating: "ab", count: 32)
        try await container.performBackgroundTask { context in
            let alice = try Practitioners.object("alice", in: context)
            alice[Practitioner.tokenHash] = hash
            try await context.save()
        }
        // Two practitioners never share a token's hash.
        await #expect(throws: (any Error).self) {
            try await container.performBackgroundTask { context in
                let bob = try Practitioners.object("bob", in: context)
                bob[Practitioner.tokenHash] = hash
                try await context.save()
            }
        }
        let found = try await container.newBackgroundContext().perform { context in
            try context.fetch(FetchRequest(Practitioner.self, predicate: Practitioner.tokenHash == hash)).map { $0[Practitioner.id] }
        }
        #expect(found == ["alice"])
    }
}
