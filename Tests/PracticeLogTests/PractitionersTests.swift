import Foundation
import PracticeLog
import StillpointCore
import StillpointTestSupport
import Testing

/// Finding a practitioner by id, and making one on first use, on SQLite and PostgreSQL.
@Suite("finding and making practitioners")
struct PractitionersTests {
    @Test(arguments: PracticeStore.all)
    func aPractitionerIsMadeOnceAndFoundAfterwards(_ store: PracticeStore) async throws {
        let container = try store.open(try store.makePlace(), schema: Session.schema)
        defer { try? container.close() }
        let first = try await Practitioners.rowID(of: "alice", in: container)
        let again = try await Practitioners.rowID(of: "alice", in: container)
        let other = try await Practitioners.rowID(of: "bob", in: container)
        #expect(first == again)
        #expect(first != other)
        let ids = try await container.newBackgroundContext().perform { context in
            try context.fetch(FetchRequest(Practitioner.self)).map { $0[Practitioner.id] }.sorted()
        }
        #expect(ids == ["alice", "bob"])
    }

    @Test(arguments: PracticeStore.all)
    func theDemoHistoryIsWrittenAsOnePractitionersSessions(_ store: PracticeStore) async throws {
        let container = try store.open(try store.makePlace(), schema: Session.schema)
        defer { try? container.close() }
        let history = DemoHistory(sessions: 50, years: 1, endingAt: Date(timeIntervalSince1970: 1_750_000_000))
        #expect(try await history.write(to: container) == 50)
        // Another practitioner's copy of the same history is theirs: keys are unique per practitioner.
        #expect(try await history.write(to: container, practitioner: "alice") == 50)
        #expect(try await history.write(to: container, practitioner: "alice") == 0)
        let counts = try await container.newBackgroundContext().perform { context in
            try ["me", "alice"].map { id in
                try context.count(for: FetchRequest(Session.self, predicate: try FetchPredicate("practitioner.id == %@", id)))
            }
        }
        #expect(counts == [50, 50])
    }
}
