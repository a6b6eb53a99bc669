import Foundation
import PracticeLog
import StillpointCore
@testable import StillpointStatistics
import StillpointTestSupport
import Testing

/// The digest's columns in their narrow types: 16-bit numbers for texts, exact at the edge and refused past it.
@Suite("digest columns")
struct DigestColumnsTests {
    @Test func theLastNumberOfAColumnNamesItsTextAndOneMoreTextIsRefused() throws {
        var names = ByteInterner(column: "kind")
        for index in 1...ByteInterner.capacity {
            #expect(try names.number(of: "k\(index)") == ByteInterner.Number(index))
        }
        #expect(names.names[Int(ByteInterner.Number.max)] == "k\(ByteInterner.capacity)")
        #expect(try names.number(of: "k\(ByteInterner.capacity)") == .max)
        #expect(try names.number(of: "k1") == 1)
        #expect(throws: DigestColumnsError.tooManyTexts(column: "kind")) { try names.number(of: "one too many") }
        // Refused, not wrapped: the texts numbered before keep their numbers.
        #expect(try names.number(of: "k7") == 7)
        #expect(DigestColumnsError.tooManyTexts(column: "kind").localizedDescription
            == "the sessions read hold more than 65535 different values of kind, the most a report's digest holds; "
            + "report on fewer sessions (one practitioner's) or merge the store's kind values")
    }

    @Test func aBuiltDigestRefusesTheTextPastItsColumnsCapacity() throws {
        var builder = SessionDigestBuilder()
        for index in 0..<ByteInterner.capacity {
            try builder.append(start: Double(index), duration: 60, kind: "yoga", source: "s\(index)", timeZone: nil)
        }
        #expect(throws: DigestColumnsError.tooManyTexts(column: "source")) {
            try builder.append(start: 0, duration: 60, kind: "yoga", source: "one too many", timeZone: nil)
        }
        let digest = builder.build(token: HistoryToken(sequence: 0))
        digest.withColumns { columns in
            #expect(columns.count == ByteInterner.capacity)
            #expect(columns.sourceNames.names[Int(columns[columns.count - 1].source)] == "s\(ByteInterner.capacity - 1)")
        }
    }

    /// A practitioner's digest read from the store holds 26 bytes a row (30 before row ids were held in 32 bits),
    /// its texts round-trip, and a catch-up that adds a row grows the kept columns by a little, not twice.
    @Test(arguments: PracticeStore.all)
    func aDigestReadFromTheStoreHoldsTwentySixBytesARowAndGrowsGently(_ store: PracticeStore) async throws {
        let container = try store.open(schema: Session.schema)
        defer { try? container.close() }
        try await Self.insert(300, from: 0, into: container)
        let alice = try #require(try await Practitioners.existingRowID(of: "alice", in: container))
        let digest = try await container.performBackgroundTask { context in
            try context.withPinnedSnapshot { try SessionDigest(in: context, practitioner: alice) }
        }
        digest.withColumns { columns in
            #expect(columns.byteCount == 300 * 26)
            let kinds = (0..<columns.count).map { columns.kindNames.names[Int(columns[$0].kind)] }
            #expect(kinds == (0..<300).map { $0 % 2 == 0 ? "yoga" : "meditation" })
            #expect(columns.zoneNames.names[Int(columns[0].zone)] == "Europe/Berlin")
        }
        try await Self.insert(1, from: 300, into: container)
        _ = try await container.performBackgroundTask { context in
            try context.withPinnedSnapshot { try digest.catchUp(in: context) }
        }
        digest.withColumns { columns in
            #expect(columns.count == 301)
            #expect(columns.rowIDs.capacity < 340)
            #expect(columns.kinds.capacity < 340)
        }
    }

    /// Past 65,535 different kinds, a report's digest fails with the error that says so, on every store.
    @Test(arguments: PracticeStore.all)
    func aStoreWithMoreKindsThanTheDigestNumbersFailsLoudly(_ store: PracticeStore) async throws {
        let container = try store.open(schema: Session.schema)
        defer { try? container.close() }
        try await Self.insert(ByteInterner.capacity + 1, from: 0, into: container) { "kind \($0)" }
        let alice = try #require(try await Practitioners.existingRowID(of: "alice", in: container))
        await #expect(throws: DigestColumnsError.tooManyTexts(column: "kind")) {
            try await container.performBackgroundTask { context in
                try context.withPinnedSnapshot { _ = try SessionDigest(in: context, practitioner: alice) }
            }
        }
    }

    /// A session moved in from another practitioner can have a lower row id than any the digest holds: the base
    /// of the 32-bit offsets moves down, and every row keeps its id, on every store.
    @Test(arguments: PracticeStore.all)
    func aRowIDBelowTheBaseJoinsTheDigest(_ store: PracticeStore) async throws {
        let container = try store.open(schema: Session.schema)
        defer { try? container.close() }
        try await Self.insert(3, from: 0, into: container)   // Alice's, the lowest row ids
        try await Self.insert(3, from: 100, into: container, for: "bob")   // Bob's, higher row ids
        let bob = try #require(try await Practitioners.existingRowID(of: "bob", in: container))
        let digest = try await container.performBackgroundTask { context in
            try context.withPinnedSnapshot { try SessionDigest(in: context, practitioner: bob) }
        }
        let bobsIDs = digest.withColumns { columns in (0..<columns.count).map { columns[$0].rowID } }
        let moved = try await container.performBackgroundTask { context in
            let session = try #require(try context.fetch(FetchRequest(Session.self, predicate: try FetchPredicate("key == %@", "s1"))).first)
            try session.set(Session.practitioner, to: try Practitioners.object("bob", in: context))
            try await context.save()
            return try #require(session.objectID.rowID)
        }
        #expect(moved < bobsIDs.min() ?? 0)
        _ = try await container.performBackgroundTask { context in
            try context.withPinnedSnapshot { try digest.catchUp(in: context) }
        }
        digest.withColumns { columns in
            #expect((0..<columns.count).map { columns[$0].rowID } == [moved] + bobsIDs)
            #expect(columns[0].start == 1_700_000_600 && columns[0].duration == 60)
            #expect(columns.holds(moved) && bobsIDs.allSatisfy(columns.holds))
            #expect(!columns.rowIDs.isWide)
            #expect(columns.byteCount == 4 * 26)
        }
        #expect(digest.count == 4)
    }

    private static func insert(_ count: Int, from first: Int, into container: PersistentContainer, for practitioner: String = "alice",
                               kind: @escaping @Sendable (Int) -> String = { $0 % 2 == 0 ? "yoga" : "meditation" }) async throws {
        try await container.performBackgroundTask { context in
            let owner = try Practitioners.object(practitioner, in: context)
            for index in first..<(first + count) {
                let session = context.insert(Session.self)
                try session.set(Session.practitioner, to: owner)
                session[Session.start] = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 600)
                session[Session.duration] = 60
                session[Session.kind] = kind(index)
                session[Session.timeZone] = "Europe/Berlin"
                session[Session.key] = "s\(index)"
            }
            try await context.save()
        }
    }
}
