import Foundation
import PracticeLog
import StillpointCore
import StillpointTestSupport
import Testing

/// A page of one practitioner's sessions: newest first, through their scope, filtered by a checked predicate, and
/// paged by a cursor that neither skips nor repeats sessions of one start; on SQLite and PostgreSQL.
@Suite("SessionPage")
struct SessionPageTests {
    /// Alice's sessions as (key, start offset in seconds): three share one start, two another. Bob has his own, of a
    /// later start than all of Alice's, and of kind `secret`.
    static let alices: [(String, Double)] = [("a0", 0), ("a1", 100), ("a2", 100), ("a3", 100), ("a4", 200), ("a5", 300), ("a6", 300)]
    static let base = Date(timeIntervalSince1970: 1_700_000_000.25)

    private func makeStore(_ store: PracticeStore) async throws -> PersistentContainer {
        let container = try store.open(try store.makePlace(), schema: Session.schema)
        try await container.performBackgroundTask { context in
            let alice = try Practitioners.object("alice", in: context)
            let bob = try Practitioners.object("bob", in: context)
            // Inserted out of order, so that row ids do not follow the starts.
            for (key, offset) in Self.alices.reversed() + [("b0", 1_000), ("b1", 100)] {
                let session = context.insert(Session.self)
                session[Session.start] = Self.base.addingTimeInterval(offset)
                session[Session.duration] = key.hasPrefix("a") ? 600 : 60
                session[Session.kind] = key.hasPrefix("a") ? "yoga" : "secret"
                session[Session.key] = key
                try session.set(Session.practitioner, to: key.hasPrefix("a") ? alice : bob)
            }
            try await context.save()
        }
        return container
    }

    @Test(arguments: PracticeStore.all)
    func pagesGoNewestFirstAndMeetEverySessionOnce(_ store: PracticeStore) async throws {
        let container = try await makeStore(store)
        defer { try? container.close() }
        let whole = try await SessionPage.fetch(for: "alice", in: container)
        #expect(whole.next == nil)
        #expect(whole.rows.map(\.key).sorted() == Self.alices.map(\.0).sorted())
        #expect(whole.rows.map(\.start) == whole.rows.map(\.start).sorted(by: >))
        for limit in [1, 2, 3] {
            var seen: [String] = []
            var page = try await SessionPage.fetch(for: "alice", limit: limit, in: container)
            seen += page.rows.map(\.key)
            while let next = page.next {
                // The cursor goes through its text, as a client hands it back.
                let cursor = try #require(SessionPageCursor(next.description))
                #expect(cursor == next)
                page = try await SessionPage.fetch(for: "alice", limit: limit, before: cursor, in: container)
                #expect(page.rows.count <= limit)
                seen += page.rows.map(\.key)
            }
            #expect(seen == whole.rows.map(\.key), "limit \(limit)")
        }
        #expect(whole.rows.first?.start == Self.base.addingTimeInterval(300))
        #expect(whole.rows.first?.duration == 600)
        #expect(whole.rows.first?.kind == "yoga")
    }

    @Test(arguments: PracticeStore.all)
    func aPredicateFiltersWithinThePractitionersSessionsOnly(_ store: PracticeStore) async throws {
        let container = try await makeStore(store)
        defer { try? container.close() }
        let filtered = try await SessionPage.fetch(for: "alice", where: "key >= 'a4'", in: container)
        #expect(Set(filtered.rows.map(\.key)) == ["a4", "a5", "a6"])
        for naming in ["kind == 'secret'", "key BEGINSWITH 'b'", "duration < 100", "TRUEPREDICATE"] {
            let page = try await SessionPage.fetch(for: "alice", where: naming, in: container)
            #expect(page.rows.allSatisfy { $0.key.hasPrefix("a") }, "\(naming)")
        }
        let bobs = try await SessionPage.fetch(for: "bob", in: container)
        #expect(bobs.rows.map(\.key) == ["b0", "b1"])
    }

    @Test(arguments: PracticeStore.all)
    func hostilePredicatesAreRefusedWithTheReason(_ store: PracticeStore) async throws {
        let container = try await makeStore(store)
        defer { try? container.close() }
        let cases: [(String, String)] = [
            ("kind ==", "\"kind ==\": expected a value after '==' at column 8"),
            ("lenght > 3", "Session has no attribute 'lenght'"),
            ("practitioner.id == 'bob'", "practitioner.id"),
            ("SUBQUERY(importRuns, $r, $r.practitioner.id == 'bob').@count > 0", "SUBQUERY"),
            (String(repeating: "(", count: 5_000) + "duration > 0" + String(repeating: ")", count: 5_000), "nest more than"),
            ("kind == $KIND", "$KIND has no value"),
            ("kind == 'a'; DROP TABLE \"Session\"", "column"),
        ]
        for (text, expected) in cases {
            do {
                _ = try await SessionPage.fetch(for: "alice", where: text, in: container)
                Issue.record("accepted \(text.prefix(40))")
            } catch let error as SessionPageError {
                guard case .badPredicate = error else { Issue.record("\(error)"); continue }
                #expect(error.description.hasPrefix("where \""), "\(error)")
                #expect(error.description.contains(expected), "\(error)")
                #expect(error.description.count < 400, "\(error.description.prefix(100))")
            }
        }
        #expect(try await SessionPage.fetch(for: "bob", in: container).rows.count == 2)
    }

    @Test(arguments: PracticeStore.all)
    func limitsCursorsAndPractitionersAreChecked(_ store: PracticeStore) async throws {
        let container = try await makeStore(store)
        defer { try? container.close() }
        for limit in [0, -1, SessionPage.maximumLimit + 1] {
            await #expect(throws: SessionPageError.limitOutOfRange(limit)) { try await SessionPage.fetch(for: "alice", limit: limit, in: container) }
        }
        #expect(try await SessionPage.fetch(for: "alice", limit: SessionPage.maximumLimit, in: container).rows.count == Self.alices.count)
        await #expect(throws: SessionPageError.noPractitioner("carol")) { try await SessionPage.fetch(for: "carol", in: container) }
        for text in ["", "abc", "12", "_4", "1e999_4", "nan_4", "12_x", "12_99999999999999999999", String(repeating: "1", count: 80) + "_1"] {
            #expect(SessionPageCursor(text) == nil, "\(text)")
        }
        #expect(SessionPageCursor("1700000000.25_42") == SessionPageCursor(start: Self.base, id: 42))
    }
}
