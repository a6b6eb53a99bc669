import Foundation
import PracticeLog
import StillpointCore
import StillpointTestSupport
import Testing

/// Listing, adding, renaming and removing practitioners (Practitioners+Managing), on SQLite and PostgreSQL.
@Suite("managing practitioners")
struct PractitionersManagingTests {
    private let history = DemoHistory(sessions: 40, years: 1, endingAt: Date(timeIntervalSince1970: 1_750_000_000))

    @Test(arguments: PracticeStore.all)
    func practitionersAreListedInIDOrderWithTheirSessionCounts(_ store: PracticeStore) async throws {
        let container = try store.open(try store.makePlace(), schema: Session.schema)
        defer { try? container.close() }
        try await history.write(to: container, practitioner: "zoe")
        try await DemoHistory(sessions: 15, years: 1, endingAt: Date(timeIntervalSince1970: 1_750_000_000)).write(to: container, practitioner: "alice")
        #expect(try await Practitioners.add("bob", name: "Bob", timeZone: "Europe/Berlin", in: container))
        #expect(try await Practitioners.add("bob", name: "Robert", in: container) == false)
        #expect(try await Practitioners.list(in: container) == [
            .init(id: "alice", name: "", timeZone: nil, sessions: 15),
            .init(id: "bob", name: "Bob", timeZone: "Europe/Berlin", sessions: 0),
            .init(id: "zoe", name: "", timeZone: nil, sessions: 40),
        ])
    }

    @Test(arguments: PracticeStore.all)
    func aPageOfPractitionersStartsAfterAnIDAndCountsItsOwnSessions(_ store: PracticeStore) async throws {
        let container = try store.open(try store.makePlace(), schema: Session.schema)
        defer { try? container.close() }
        try await history.write(to: container, practitioner: "zoe")
        try await DemoHistory(sessions: 15, years: 1, endingAt: Date(timeIntervalSince1970: 1_750_000_000)).write(to: container, practitioner: "bob")
        for id in ["alice", "carol", "dan"] { try await Practitioners.add(id, in: container) }
        #expect(try await Practitioners.list(limit: 2, in: container).map { "\($0.id) \($0.sessions)" } == ["alice 0", "bob 15"])
        #expect(try await Practitioners.list(after: "bob", limit: 2, in: container).map(\.id) == ["carol", "dan"])
        // An id that is not there (removed since the page before) still marks where the next page starts.
        #expect(try await Practitioners.list(after: "d", limit: 5, in: container).map { "\($0.id) \($0.sessions)" } == ["dan 0", "zoe 40"])
        #expect(try await Practitioners.list(after: "zoe", limit: 5, in: container).isEmpty)
    }

    @Test(arguments: PracticeStore.all)
    func renamingKeepsTheSessionsAndRefusesATakenID(_ store: PracticeStore) async throws {
        let container = try store.open(try store.makePlace(), schema: Session.schema)
        defer { try? container.close() }
        try await history.write(to: container, practitioner: "me")
        try await Practitioners.add("bob", in: container)
        #expect(try await Practitioners.rename("me", to: "bob", in: container) == .newIDTaken)
        #expect(try await Practitioners.rename("nobody", to: "carol", in: container) == .notFound)
        #expect(try await Practitioners.rename("me", to: "alice", in: container) == .renamed)
        #expect(try await Practitioners.list(in: container).map { "\($0.id) \($0.sessions)" } == ["alice 40", "bob 0"])
    }

    @Test(arguments: PracticeStore.all)
    func removingAPractitionerRemovesTheirSessionsAndRunsOnly(_ store: PracticeStore) async throws {
        let container = try store.open(try store.makePlace(), schema: Session.schema)
        defer { try? container.close() }
        try await history.write(to: container, practitioner: "alice")
        try await history.write(to: container, practitioner: "bob")
        for id in ["alice", "bob", "bob"] {
            let practitioner = try await Practitioners.rowID(of: id, in: container)
            _ = try await ImportRuns.begin(file: "\(id).csv", contentHash: id, format: "csv", options: "", practitioner: practitioner, in: container)
        }
        #expect(try await Practitioners.remove("carol", from: container) == nil)
        #expect(try await Practitioners.remove("bob", from: container) == Practitioners.Removal(sessions: 40, importRuns: 2))
        #expect(try await Practitioners.list(in: container) == [.init(id: "alice", name: "", timeZone: nil, sessions: 40)])
        #expect(try await ImportRuns.list(in: container).map(\.file) == ["alice.csv"])
    }

    @Test
    func anIDIsOneLineOfBoundedLength() {
        #expect(Practitioners.problem(withID: "alice") == nil)
        #expect(Practitioners.problem(withID: "user-42@example.org") == nil)
        #expect(Practitioners.problem(withID: "") == "is empty")
        #expect(Practitioners.problem(withID: "a\nb") == "holds a control character")
        #expect(Practitioners.problem(withID: String(repeating: "x", count: 201)) == "is longer than 200 characters")
    }
}
