import Foundation
import PracticeLog
import StillpointCore
import StillpointTestSupport
import Testing

/// The practitioner in the model, on SQLite and PostgreSQL: sessions and runs must have one, a session's key is
/// unique per practitioner, and removing a practitioner removes their sessions and runs.
@Suite("practitioners in the model")
struct PractitionerTests {
    private func insertSession(key: String, of practitioner: ManagedObject?, in context: isolated ObjectContext) throws {
        let session = context.insert(Session.self)
        session[Session.start] = Date(timeIntervalSince1970: 1_700_000_000)
        session[Session.duration] = 600
        session[Session.key] = key
        if let practitioner { try session.set(Session.practitioner, to: practitioner) }
    }

    @Test(arguments: PracticeStore.all)
    func aSessionOrRunWithoutAPractitionerIsNotSaved(_ store: PracticeStore) async throws {
        let container = try store.open(try store.makePlace(), schema: Session.schema)
        defer { try? container.close() }
        let failures = try await container.performBackgroundTask { context -> [ValidationFailure.Reason] in
            try insertSession(key: "a", of: nil, in: context)
            let run = context.insert(ImportRun.self)
            run[ImportRun.file] = "log.csv"
            run[ImportRun.contentHash] = ""
            run[ImportRun.format] = "csv"
            run[ImportRun.startedAt] = Date()
            do {
                try await context.save()
                return []
            } catch SaveError.validation(let failures) {
                return failures.map(\.reason)
            }
        }
        #expect(failures.filter { $0 == .missingValue(attribute: "practitioner") }.count == 2, "\(failures)")
    }

    @Test(arguments: PracticeStore.all)
    func aKeyIsUniquePerPractitioner(_ store: PracticeStore) async throws {
        let container = try store.open(try store.makePlace(), schema: Session.schema)
        defer { try? container.close() }
        try await container.performBackgroundTask { context in
            try insertSession(key: "same", of: try Practitioners.object("alice", in: context), in: context)
            try insertSession(key: "same", of: try Practitioners.object("bob", in: context), in: context)
            try await context.save()
        }
        let refused = try await container.performBackgroundTask { context -> Bool in
            try insertSession(key: "same", of: try Practitioners.object("alice", in: context), in: context)
            do {
                try await context.save()
                return false
            } catch SaveError.validation(let failures) {
                return failures.contains { if case .uniquenessViolation = $0.reason { true } else { false } }
            }
        }
        #expect(refused)
        let count = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Session.self)) }
        #expect(count == 2)
    }

    @Test(arguments: PracticeStore.all)
    func removingAPractitionerRemovesTheirSessionsAndRuns(_ store: PracticeStore) async throws {
        let container = try store.open(try store.makePlace(), schema: Session.schema)
        defer { try? container.close() }
        try await container.performBackgroundTask { context in
            for id in ["alice", "bob"] {
                let practitioner = try Practitioners.object(id, in: context)
                for index in 0..<3 { try insertSession(key: "\(id)-\(index)", of: practitioner, in: context) }
                let run = context.insert(ImportRun.self)
                run[ImportRun.file] = "\(id).csv"
                run[ImportRun.contentHash] = id
                run[ImportRun.format] = "csv"
                run[ImportRun.startedAt] = Date()
                try run.set(ImportRun.practitioner, to: practitioner)
            }
            try await context.save()
        }
        try await container.performBackgroundTask { context in
            try context.delete(try Practitioners.object("alice", in: context))
            try await context.save()
        }
        let left = try await container.newBackgroundContext().perform { context in
            (try context.fetch(FetchRequest(Session.self)).map { $0[Session.key] }.sorted(),
             try context.fetch(FetchRequest(ImportRun.self)).map { $0[ImportRun.file] })
        }
        #expect(left.0 == ["bob-0", "bob-1", "bob-2"])
        #expect(left.1 == ["bob.csv"])
    }
}
