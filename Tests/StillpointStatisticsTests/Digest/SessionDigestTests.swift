import Foundation
import PracticeLog
import StillpointCore
import StillpointSQLite
@testable import StillpointStatistics
import StillpointTestSupport
import Testing

/// The digest against the store's own queries, and a digest that caught up against one read afresh.
@Suite("session digest")
struct SessionDigestTests {
    static let filters: [SessionFilter] = [
        SessionFilter(asOf: DigestTestStore.asOf),
        SessionFilter(kinds: ["yoga", "méditation"], asOf: DigestTestStore.asOf),
        SessionFilter(minimumDuration: 20 * 60, asOf: DigestTestStore.asOf),
        SessionFilter(from: DigestTestStore.asOf.addingTimeInterval(-400 * 86_400),
                      until: DigestTestStore.asOf.addingTimeInterval(-30 * 86_400), asOf: DigestTestStore.asOf),
        SessionFilter(asOf: DigestTestStore.asOf.addingTimeInterval(-200 * 86_400)),
        SessionFilter(asOf: .distantFuture),
    ]
    static let boundaries: [DayBoundary] = [
        DayBoundary(timeZone: TimeZone(identifier: "UTC")!),
        DayBoundary(timeZone: TimeZone(identifier: "Europe/Berlin")!, dayStartsAt: 4 * 3600),
        DayBoundary(timeZone: TimeZone(identifier: "America/New_York")!, dayStartsAt: -2 * 3600),
    ]

    /// What the store's own queries say the sessions of `filter` are.
    struct Expected: Equatable {
        var count: Int
        var total: Double
        var days: [DayTally]
        var hours: [SessionTally]
        var kinds: [NamedTally]
        var durations: [Double]

        init(_ filter: SessionFilter, _ boundary: DayBoundary, in context: isolated ObjectContext) throws {
            count = try context.count(for: filter.request())
            var days: [LocalDay: SessionTally] = [:]
            var hours = Array(repeating: SessionTally(), count: 24)
            var durations: [Double] = []
            try SessionScan.forEach(filter, in: context) { session in
                days[boundary.day(of: session.start, timeZone: session.timeZone), default: SessionTally()].add(session.duration)
                hours[boundary.localHour(of: session.start, timeZone: session.timeZone)].add(session.duration)
                durations.append(session.duration)
            }
            total = durations.reduce(0, +)
            self.days = days.keys.sorted().map { DayTally(day: $0, tally: days[$0]!) }
            self.hours = hours
            self.durations = durations.sorted()
            var request = filter.request()
            request.properties = [.attribute("kind"), .count(as: "n"), .aggregate(.sum, of: "duration", as: "t")]
            request.groupBy = ["kind"]
            request.sortKeys = [.ascending("kind")]
            kinds = try context.fetchDictionaries(request).map { row in
                NamedTally(name: String(attributeValue: row["kind"] ?? .null) ?? "",
                           tally: SessionTally(count: Int(attributeValue: row["n"] ?? .null) ?? 0,
                                               time: Double(attributeValue: row["t"] ?? .null) ?? 0))
            }
        }

        /// Sums in another order can differ in the last bits for fractional durations.
        func matches(_ selected: SelectedSessions, durations digestDurations: [Double]) -> Bool {
            func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(1, abs(a), abs(b)) }
            func same(_ a: SessionTally, _ b: SessionTally) -> Bool { a.count == b.count && close(a.time, b.time) }
            return count == selected.count && close(total, selected.totalTime)
                && days.map(\.day) == selected.days.map(\.day) && zip(days, selected.days).allSatisfy { same($0.tally, $1.tally) }
                && hours.count == selected.hours.count && zip(hours, selected.hours).allSatisfy(same)
                && kinds.map(\.name) == selected.kinds.map(\.name) && zip(kinds, selected.kinds).allSatisfy { same($0.tally, $1.tally) }
                && durations == digestDurations
        }
    }

    func expectMatchesStore(_ digest: SessionDigest, _ container: PersistentContainer, _ comment: String) async throws {
        for filter in Self.filters {
            for boundary in Self.boundaries {
                let expected = try await container.performBackgroundTask { context in
                    try context.withPinnedSnapshot { try Expected(filter, boundary, in: context) }
                }
                let selected = digest.sessions(filter, boundary: boundary)
                #expect(expected.matches(selected, durations: digest.durations(filter)),
                        "\(comment): \(filter) in \(boundary.timeZone.identifier) from \(boundary.dayStartsAt) s")
            }
        }
    }

    @Test func aDigestHoldsWhatTheStoresQueriesRead() async throws {
        let store = try await DigestTestStore(sessions: 3_000)
        defer { store.remove() }
        // Rows no statistic counts: an infinite duration, none, a start before 1900.
        try await store.container.performBackgroundTask { context in
            for (index, (start, duration)) in [(Date(), Double.infinity), (Date(), 0), (Date(timeIntervalSince1970: -3e9), 600)].enumerated() {
                let session = context.insert(Session.self)
                try session.set(Session.practitioner, to: try Practitioners.object(Practitioner.defaultID, in: context))
                session[Session.start] = start
                session[Session.duration] = duration
                session[Session.key] = "bad-\(index)"
            }
            try await context.save()
        }
        try await expectMatchesStore(try await store.digest(), store.container, "a digest read once")
    }

    @Test func aDigestThatCaughtUpEqualsOneReadAfresh() async throws {
        let store = try await DigestTestStore(sessions: 2_000)
        defer { store.remove() }
        let digest = try await store.digest()
        // Sums the digest keeps, to be updated row by row.
        for filter in Self.filters {
            for boundary in Self.boundaries { _ = digest.sessions(filter, boundary: boundary) }
            _ = digest.durations(filter)
        }

        // Inserts, updates (start, duration, kind, zone), deletes, and a save from another container on the file.
        let inserted = try await DigestTestStore.insert(20, seed: 99, keyPrefix: "new", into: store.container)
        try await store.container.performBackgroundTask { context in
            for (index, id) in inserted.prefix(5).enumerated() {
                let session = try context.existingObject(with: id)
                session[Session.duration] = Double(index + 1) * 600
                session[Session.kind] = "yoga"
                session[Session.timeZone] = "Asia/Kolkata"
                // The first just before as_of, after every other start: what the digest keeps moves to a new key.
                session[Session.start] = DigestTestStore.asOf.addingTimeInterval(-Double(index) * 86_400 - 1)
            }
            for id in inserted.suffix(3) { try context.delete(try context.existingObject(with: id)) }
            let old = try context.fetch(FetchRequest(Session.self, predicate: try FetchPredicate("key BEGINSWITH %@", "s-1")))
            for session in old.prefix(10) { try context.delete(session) }
            for session in old.dropFirst(10).prefix(10) { session[Session.kind] = "méditation" }
            try await context.save()
        }
        // Batches: a delete and an update of a few sessions, which report the rows they changed.
        try await store.container.performBackgroundTask { context in
            _ = try await context.batchDelete(FetchRequest(Session.self, predicate: try FetchPredicate("key BEGINSWITH %@", "s-20")))
            _ = try await context.batchUpdate(FetchRequest(Session.self, predicate: try FetchPredicate("key BEGINSWITH %@", "s-30")),
                                              set: ["duration": .double(4_321), "kind": .string("yoga")])
        }
        let other = try PersistentContainer(schema: Session.schema, location: .file(store.directory.appendingPathComponent("store.sqlite")))
        try await DigestTestStore.insert(15, seed: 5, keyPrefix: "other", into: other)
        try other.close()

        let outcome = try await store.container.performBackgroundTask { context in
            try context.withPinnedSnapshot { try digest.catchUp(in: context) }
        }
        guard case .updated(let update) = outcome else {
            Issue.record("the digest did not catch up: \(outcome)")
            return
        }
        // 20 inserted (some then updated or deleted), 10 deleted, up to 10 whose kind changed, 11 + 11 by batches
        // (s-20, s-200...s-209 and s-30...), 15 from the other container.
        #expect((20 + 10 + 22 + 15)...(20 + 10 + 10 + 22 + 15) ~= update.sessions)
        #expect(update.touches(SessionFilter(kinds: ["méditation"], asOf: DigestTestStore.asOf)))
        #expect(!update.touches(SessionFilter(kinds: ["tai chi"], asOf: DigestTestStore.asOf)))
        try await expectMatchesStore(digest, store.container, "a digest that caught up")
        #expect(digest.historyToken == (try store.container.currentHistoryToken()))
    }

    @Test func aDigestPastAPurgedChangeLogMustBeBuiltAgain() async throws {
        let store = try await DigestTestStore(sessions: 50)
        defer { store.remove() }
        let digest = try await store.digest()
        try await DigestTestStore.insert(3, seed: 1, keyPrefix: "late", into: store.container)
        try store.container.purgeHistory(through: try store.container.currentHistoryToken())
        let outcome = try await store.container.performBackgroundTask { context in
            try context.withPinnedSnapshot { try digest.catchUp(in: context) }
        }
        guard case .rebuild(let reason) = outcome else {
            Issue.record("a digest caught up past a purge: \(outcome)")
            return
        }
        #expect(reason.contains("purged"))
    }

    /// A practitioner's digest reads their sessions through the store's scope, as rows: it makes no object of them
    /// (which read every column twice), and leaves the context's own scope as it was.
    @Test(arguments: PracticeStore.all)
    func aPractitionersDigestReadsTheirRowsWithoutMakingObjects(_ store: PracticeStore) async throws {
        let container = try store.open(schema: Session.schema)
        defer { try? container.close() }
        let ids = try await container.performBackgroundTask { context in
            var sessions: [ManagedObject] = []
            for (index, id) in ["alice", "bob", "alice"].enumerated() {
                let session = context.insert(Session.self)
                try session.set(Session.practitioner, to: try Practitioners.object(id, in: context))
                session[Session.start] = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 86_400)
                session[Session.duration] = 600
                session[Session.key] = "s\(index)"
                sessions.append(session)
            }
            try await context.save()
            return sessions.map(\.objectID)  // permanent after the save
        }
        let alice = try #require(try await Practitioners.existingRowID(of: "alice", in: container))
        let bob = try #require(try await Practitioners.existingRowID(of: "bob", in: container))
        try await container.newBackgroundContext().perform { context in
            let bobsScope = try FetchScope.practitioner(bob)
            context.setScope(bobsScope)
            let digest = try context.withPinnedSnapshot { try SessionDigest(in: context, practitioner: alice) }
            #expect(digest.count == 2)
            #expect(context.scope == bobsScope)
            for id in ids { #expect(context.registeredObject(for: id) == nil) }
        }
    }

    /// A practitioner's digest is kept for as long as a service runs: it holds its rows in columns of their own
    /// size, not in the room they grew into while the scan appended them.
    @Test(arguments: PracticeStore.all)
    func aPractitionersDigestHoldsNoRoomBeyondItsRows(_ store: PracticeStore) async throws {
        let container = try store.open(schema: Session.schema)
        defer { try? container.close() }
        try await container.performBackgroundTask { context in
            let alice = try Practitioners.object("alice", in: context)
            for index in 0..<300 {
                let session = context.insert(Session.self)
                try session.set(Session.practitioner, to: alice)
                session[Session.start] = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 86_400)
                session[Session.duration] = Double(60 * (1 + index % 90))
                session[Session.kind] = index % 2 == 0 ? "yoga" : "meditation"
                session[Session.key] = "s\(index)"
            }
            try await context.save()
        }
        let alice = try #require(try await Practitioners.existingRowID(of: "alice", in: container))
        let digest = try await container.performBackgroundTask { context in
            try context.withPinnedSnapshot { try SessionDigest(in: context, practitioner: alice) }
        }
        #expect(digest.count == 300)
        // At most 32 bytes over: what glibc's allocator rounds a block up to (arrays that grew by doubling while
        // 300 rows were appended have room for dozens more).
        func spare<T>(_ array: [T]) -> Int { (array.capacity - array.count) * MemoryLayout<T>.stride }
        digest.withColumns { columns in
            for bytes in [columns.rowIDs.spareBytes, spare(columns.starts), spare(columns.durations),
                          spare(columns.kinds), spare(columns.sources), spare(columns.zones)] {
                #expect(bytes <= 32)
            }
        }
        let durations = digest.durations(SessionFilter(asOf: .distantFuture))
        #expect(durations.count == 300)
        #expect(spare(durations) <= 32)
    }

    /// The summaries statistics read are let go after a report and made again, alike, from the running sums,
    /// also after a change the sums took in meanwhile.
    @Test
    func summariesReleasedAreMadeAgainAlike() async throws {
        let store = try await DigestTestStore(sessions: 400)
        defer { store.remove() }
        let digest = try await store.digest()
        let filter = SessionFilter(asOf: DigestTestStore.asOf)
        let boundary = DayBoundary(timeZone: TimeZone(identifier: "Europe/Berlin")!, dayStartsAt: 4 * 3600)
        let first = digest.sessions(filter, boundary: boundary)
        _ = digest.sessions(SessionFilter(minimumDuration: 20 * 60, asOf: DigestTestStore.asOf), boundary: boundary)
        #expect(digest.heldSummaries == 2)
        digest.releaseSummaries()
        #expect(digest.heldSummaries == 0)
        #expect(digest.sessions(filter, boundary: boundary) == first)
        #expect(digest.heldSummaries == 1)

        try await DigestTestStore.insert(5, seed: 11, keyPrefix: "late", into: store.container)
        digest.releaseSummaries()
        _ = try await store.container.performBackgroundTask { context in
            try context.withPinnedSnapshot { try digest.catchUp(in: context) }
        }
        let fresh = try await store.digest()
        #expect(digest.sessions(filter, boundary: boundary) == fresh.sessions(filter, boundary: boundary))
    }

    /// A small digest's sorted durations go with the summaries and are sorted again alike, also after a change the
    /// digest caught up with meanwhile; a digest past ``SessionDigest/largestReleasedDurations`` keeps them.
    @Test
    func sortedDurationsReleasedAreSortedAgainAlike() async throws {
        let store = try await DigestTestStore(sessions: 400)
        defer { store.remove() }
        let digest = try await store.digest()
        let filter = SessionFilter(minimumDuration: 20 * 60, asOf: DigestTestStore.asOf)
        let first = digest.durations(filter)
        #expect(digest.heldDurations == 1)
        digest.releaseSummaries()
        #expect(digest.heldDurations == 0)
        #expect(digest.durations(filter) == first)

        digest.releaseSummaries()
        try await DigestTestStore.insert(5, seed: 13, keyPrefix: "late", into: store.container)
        _ = try await store.container.performBackgroundTask { context in
            try context.withPinnedSnapshot { try digest.catchUp(in: context) }
        }
        #expect(digest.durations(filter) == (try await store.digest()).durations(filter))

        var builder = SessionDigestBuilder()
        for index in 0...SessionDigest.largestReleasedDurations {
            try builder.append(start: Double(index), duration: Double(index % 97 + 1), kind: nil, source: nil, timeZone: nil)
        }
        let large = builder.build(token: HistoryToken(sequence: 0))
        _ = large.durations(SessionFilter(asOf: .distantFuture))
        large.releaseSummaries()
        #expect(large.heldDurations == 1)
    }
}
