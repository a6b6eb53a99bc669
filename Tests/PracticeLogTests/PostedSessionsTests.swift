import Foundation
import PracticeLog
import StillpointCore
import StillpointTestSupport
import Testing

/// Sessions posted as JSON: checked with the import limits (every wrong one named by index and field), saved for one
/// practitioner in one transaction, idempotent by key within that practitioner's sessions; on SQLite and PostgreSQL.
@Suite("PostedSessions")
struct PostedSessionsTests {
    static let now = Date(timeIntervalSince1970: 1_735_689_600)   // 2025-01-01T00:00:00Z

    /// A store with Alice (home zone Europe/Berlin) and Bob (none).
    private func makeStore(_ store: PracticeStore) async throws -> PersistentContainer {
        let container = try store.open(try store.makePlace(), schema: Session.schema)
        try await Practitioners.add("alice", timeZone: "Europe/Berlin", in: container)
        try await Practitioners.add("bob", in: container)
        return container
    }

    /// Every session of the store by practitioner id and key: (duration, start, zone, kind, source).
    private func sessions(_ container: PersistentContainer) async throws -> [String: (Double, Date, String?, String, String)] {
        try await container.newBackgroundContext().perform { context in
            var found: [String: (Double, Date, String?, String, String)] = [:]
            for session in try context.fetch(FetchRequest(Session.self)) {
                let owner = try session.relatedObject(forKey: Session.practitioner.name)?[Practitioner.id] ?? "?"
                found["\(owner)/\(session[Session.key])"] = (session[Session.duration], session[Session.start], session[Session.timeZone],
                                                             session[Session.kind], session[Session.source])
            }
            return found
        }
    }

    private func post(_ json: String, for practitioner: String, in container: PersistentContainer) async throws -> PostedSessionsOutcome {
        try await PostedSessions.save(Data(json.utf8), for: practitioner, in: container, now: Self.now)
    }

    private func issues(_ json: String, homeZone: TimeZone? = nil) -> [PostedSessionIssue]? {
        do {
            _ = try PostedSessions.records(from: Data(json.utf8), homeZone: homeZone, now: Self.now)
            return nil
        } catch {
            guard case .badSessions(_, _, let first) = error else { return nil }
            return first
        }
    }

    @Test(arguments: PracticeStore.all)
    func theSameKeyPostedAgainIsOneSessionOfThatPractitionerOnly(_ store: PracticeStore) async throws {
        let container = try await makeStore(store)
        defer { try? container.close() }
        let body = """
            [{"start": "2024-03-05T07:30:00Z", "duration": 1200, "kind": "Yoga", "key": "a-1"},
             {"start": "2024-03-06T07:30:00Z", "duration": 600, "kind": "meditation", "key": "a-2"},
             {"start": "2024-03-07T07:30:00Z", "duration": 900, "kind": "meditation", "source": "my_app"}]
            """
        let first = try await post(body, for: "alice", in: container)
        #expect(first == PostedSessionsOutcome(inserted: 3, updated: 0, unchanged: 0, keys: ["a-1", "a-2", "my_app|1709796600|1709797500"]))
        let again = try await post(body, for: "alice", in: container)
        #expect(again == PostedSessionsOutcome(inserted: 0, updated: 0, unchanged: 3, keys: first.keys))
        let changed = try await post(#"[{"start": "2024-03-05T07:30:00Z", "duration": 1500, "kind": "yoga", "key": "a-1"}]"#, for: "alice", in: container)
        #expect(changed == PostedSessionsOutcome(inserted: 0, updated: 1, unchanged: 0, keys: ["a-1"]))
        // Bob's key a-1 is his own session: Alice's stays as it is.
        let bobs = try await post(#"[{"start": "2024-03-05T09:00:00Z", "duration": 60, "kind": "yoga", "key": "a-1"}]"#, for: "bob", in: container)
        #expect(bobs.inserted == 1)
        let stored = try await sessions(container)
        #expect(stored.count == 4)
        #expect(stored["alice/a-1"]?.0 == 1_500)
        #expect(stored["alice/a-1"]?.3 == "yoga")
        #expect(stored["alice/a-1"]?.4 == PostedSessions.defaultSource)
        #expect(stored["bob/a-1"]?.0 == 60)
        #expect(stored["alice/my_app|1709796600|1709797500"]?.4 == "my_app")
    }

    /// Posts of the same sessions at once (a client retrying before the first answer came) make each session once.
    @Test(arguments: PracticeStore.all)
    func theSamePostTwiceAtOnceMakesEachSessionOnce(_ store: PracticeStore) async throws {
        let container = try await makeStore(store)
        defer { try? container.close() }
        let body = "[" + (0..<50).map { #"{"start": "2024-03-05T07:\#(String(format: "%02d", $0)):00Z", "duration": 60, "kind": "yoga"}"# }
            .joined(separator: ",") + "]"
        let outcomes = try await withThrowingTaskGroup(of: PostedSessionsOutcome.self) { group in
            for _ in 0..<4 { group.addTask { try await post(body, for: "alice", in: container) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(outcomes.map(\.inserted).reduce(0, +) == 50)
        #expect(outcomes.allSatisfy { $0.inserted + $0.unchanged == 50 && $0.updated == 0 })
        #expect(try await sessions(container).count == 50)
    }

    @Test(arguments: PracticeStore.all)
    func aWrongSessionInTheMiddleSavesNone(_ store: PracticeStore) async throws {
        let container = try await makeStore(store)
        defer { try? container.close() }
        let body = """
            [{"start": "2024-03-05T07:30:00Z", "duration": 1200, "kind": "yoga"},
             {"start": "2024-03-06T07:30:00Z", "duration": -5, "kind": "yoga"},
             {"start": "2024-03-07T07:30:00Z", "duration": 900, "kind": "yoga"}]
            """
        await #expect(throws: PostedSessionsError.badSessions(count: 1, of: 3, first: [
            PostedSessionIssue(index: 1, field: "duration", reason: "is -5 s; a session lasts longer than 0 seconds"),
        ])) {
            try await post(body, for: "alice", in: container)
        }
        #expect(try await sessions(container).isEmpty)
    }

    @Test(arguments: PracticeStore.all)
    func aPractitionerNotInTheStoreIsRefused(_ store: PracticeStore) async throws {
        let container = try await makeStore(store)
        defer { try? container.close() }
        await #expect(throws: PostedSessionsError.noPractitioner("carol")) {
            try await post(#"[{"start": "2024-03-05T07:30:00Z", "duration": 60, "kind": "yoga"}]"#, for: "carol", in: container)
        }
        #expect(try await Practitioners.existingRowID(of: "carol", in: container) == nil)
    }

    /// Without `time_zone`, the practitioner's home zone: it places a wall-clock start and is the zone the session
    /// carries; without either, a wall-clock start is read as UTC (`Etc/UTC`) and an instant keeps its offset.
    @Test(arguments: PracticeStore.all)
    func theHomeTimeZoneAppliesWhereNoneIsGiven(_ store: PracticeStore) async throws {
        let container = try await makeStore(store)
        defer { try? container.close() }
        let body = """
            [{"start": "2024-07-01T07:00:00", "duration": 60, "kind": "yoga", "key": "wall"},
             {"start": "2024-07-01T07:00:00Z", "duration": 60, "kind": "yoga", "key": "instant"},
             {"start": "2024-07-01T07:00:00", "time_zone": "Asia/Tokyo", "duration": 60, "kind": "yoga", "key": "tokyo"}]
            """
        _ = try await post(body, for: "alice", in: container)
        _ = try await post(body.replacingOccurrences(of: "07:00:00Z", with: "07:00:00+02:00"), for: "bob", in: container)
        let stored = try await sessions(container)
        let sevenUTC = try #require(ISOInstant.parse("2024-07-01T07:00:00Z"))
        #expect(stored["alice/wall"]?.1 == sevenUTC.addingTimeInterval(-7_200))   // 07:00 in Berlin's summer time
        #expect(stored["alice/wall"]?.2 == "Europe/Berlin")
        #expect(stored["alice/instant"]?.1 == sevenUTC)
        #expect(stored["alice/instant"]?.2 == "Europe/Berlin")
        #expect(stored["alice/tokyo"]?.1 == sevenUTC.addingTimeInterval(-9 * 3_600))
        #expect(stored["alice/tokyo"]?.2 == "Asia/Tokyo")
        #expect(stored["bob/wall"]?.1 == sevenUTC)
        #expect(stored["bob/wall"]?.2 == "Etc/UTC")
        #expect(stored["bob/instant"]?.1 == sevenUTC.addingTimeInterval(-7_200))
        #expect(stored["bob/instant"]?.2 == TimeZone(secondsFromGMT: 7_200)?.identifier)
    }

    @Test
    func everyWrongSessionIsNamedByIndexAndField() throws {
        let long = String(repeating: "k", count: ImportLimits.maxFieldBytes + 1)
        let body = """
            [{"start": "2024-03-05T07:30:00Z", "duration": "600", "kind": "yoga"},
             {"duration": 600, "kind": "yoga"},
             {"start": "2024-02-30T07:30:00Z", "duration": 600, "kind": "yoga"},
             {"start": "2024-03-05T07:30:00+19:00", "duration": 600, "kind": "yoga"},
             {"start": "2030-01-01T00:00:00Z", "duration": 600, "kind": "yoga"},
             {"start": "2024-03-05T07:30:00Z", "duration": 700000, "kind": "yoga"},
             {"start": "2024-03-05T07:30:00Z", "duration": 600, "kind": "  "},
             {"start": "2024-03-05T07:30:00Z", "duration": 600, "kind": "yoga", "time_zone": "Mars/Olympus"},
             {"start": "2024-03-05T07:30:00Z", "duration": 600, "kind": "yoga", "key": "\(long)"},
             {"start": "2024-03-05T07:30:00Z", "duration": 600, "kind": "yo\\u0000ga"},
             {"start": "2024-03-05T07:30:00Z", "duration": 600, "kind": "yoga", "lenght": 3},
             "yoga",
             {"start": "2024-03-05T07:30:00Z", "duration": 600, "kind": "yoga", "key": "k"},
             {"start": "2024-03-05T08:30:00Z", "duration": 600, "kind": "yoga", "key": "k"},
             {"start": "2024-03-05T07:30:00Z", "duration": 600, "kind": "yoga", "key": ""}]
            """
        let found = try #require(issues(body))
        #expect(found.map { "\($0.index) \($0.field)" } == [
            "0 duration", "1 start", "2 start", "3 start", "4 start", "5 duration", "6 kind", "7 time_zone", "8 key", "9 kind",
            "10 lenght", "11 ", "13 key", "14 key",
        ])
        #expect(found[0].description == "[0].duration is not a number of seconds")
        #expect(found[3].reason.contains("+19:00, beyond ±14:00"))
        #expect(found[4].description == "[4].start 2030-01-01T00:00:00Z lies more than a day in the future")
        #expect(found[5].description == "[5].duration 700000 s is longer than 7 days (604800 s), the longest session imported")
        #expect(found[7].reason.contains("'Mars/Olympus' is not a time zone"))
        #expect(found[8].reason == "is 257 bytes long, more than 256")
        #expect(found[9].reason.contains("NUL character"))
        #expect(found[10].description.hasPrefix("[10].lenght is not a field of a session"))
        #expect(found[12].reason.hasPrefix("'k' is also the key of [12]"))
        #expect(found[12].pointer == "/13/key")
    }

    @Test
    func theMessageListsTheFirstWrongSessionsAndCountsThemAll() throws {
        let body = "[" + Array(repeating: #"{"start": "2024-03-05T07:30:00Z", "duration": 0, "kind": "yoga"}"#, count: 30).joined(separator: ",") + "]"
        #expect(throws: PostedSessionsError.self) { try PostedSessions.records(from: Data(body.utf8), homeZone: nil, now: Self.now) }
        do {
            _ = try PostedSessions.records(from: Data(body.utf8), homeZone: nil, now: Self.now)
        } catch {
            guard case .badSessions(let count, let total, let first) = error else { Issue.record("\(error)"); return }
            #expect(count == 30 && total == 30 && first.count == PostedSessionsError.listedIssues)
            #expect(error.description.hasSuffix("; and 10 more (30 of 30 sessions are wrong; nothing was saved)"))
            #expect(!error.description.contains("\n"))
        }
    }

    /// A huge array is refused by its length, before any of its elements is read (these are not even sessions), and a
    /// body over the byte limit before it is parsed.
    @Test
    func hugeArraysAndBodiesAreRefusedWhole() throws {
        let many = "[" + Array(repeating: "0", count: ImportLimits.maxPostedSessions + 1).joined(separator: ",") + "]"
        #expect(throws: PostedSessionsError.tooMany(count: ImportLimits.maxPostedSessions + 1, limit: ImportLimits.maxPostedSessions)) {
            try PostedSessions.records(from: Data(many.utf8), homeZone: nil, now: Self.now)
        }
        let large = Data(repeating: UInt8(ascii: " "), count: ImportLimits.maxPostedBytes + 1)
        #expect(throws: PostedSessionsError.tooLarge(bytes: large.count, limit: ImportLimits.maxPostedBytes)) {
            try PostedSessions.records(from: large, homeZone: nil, now: Self.now)
        }
    }

    @Test(arguments: [
        ("{\"start\": \"2024-03-05T07:30:00Z\"}", "the body is not a JSON array"),
        ("[{\"start\": ", "the body is not JSON"),
        ("", "the body is not JSON"),
        ("\"yoga\"", "the body is not a JSON array"),
    ])
    func aBodyThatIsNoArrayIsRefused(body: String, message: String) throws {
        do {
            _ = try PostedSessions.records(from: Data(body.utf8), homeZone: nil, now: Self.now)
            Issue.record("accepted \(body)")
        } catch {
            guard case .malformed(let reason) = error else { Issue.record("\(error)"); return }
            #expect(reason.hasPrefix(message), "\(reason)")
            #expect(!reason.contains("\n") && !reason.contains("Swift."), "\(reason)")
        }
    }

    @Test
    func anEmptyArraySavesNothing() async throws {
        let container = try await makeStore(.sqlite)
        defer { try? container.close() }
        #expect(try await post("[]", for: "alice", in: container) == PostedSessionsOutcome(inserted: 0, updated: 0, unchanged: 0, keys: []))
    }
}
