import Foundation
import PracticeLog
import StillpointCore
import StillpointTestSupport
import Testing

/// A context scoped to Alice (``FetchScope`` on ``Practitioner``) reads and writes nothing of Bob's, by any route,
/// on SQLite and PostgreSQL: fetches, counts, dictionary fetches, row streams, table scans and ordered scans, reads by
/// ID, batch updates and deletes, exports and live results, whatever predicate names Bob.
@Suite("a practitioner's scope")
struct PractitionerScopeTests {
    /// Alice and Bob with three sessions each (keys `alice-0`..., `bob-0`...; Bob's are of kind `secret`), each read
    /// by one import run of theirs.
    private func makeStore(_ store: PracticeStore) async throws -> (PersistentContainer, alice: Int64, bobSessions: [ObjectID]) {
        let container = try store.open(try store.makePlace(), schema: Session.schema)
        let bobSessions = try await container.performBackgroundTask { context in
            var bobs: [ManagedObject] = []
            for id in ["alice", "bob"] {
                let practitioner = try Practitioners.object(id, in: context)
                let run = context.insert(ImportRun.self)
                run[ImportRun.file] = "\(id).csv"
                run[ImportRun.contentHash] = id
                run[ImportRun.format] = "csv"
                run[ImportRun.startedAt] = Date(timeIntervalSince1970: 1_700_000_000)
                try run.set(ImportRun.practitioner, to: practitioner)
                for index in 0..<3 {
                    let session = context.insert(Session.self)
                    session[Session.start] = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 86_400)
                    session[Session.duration] = id == "alice" ? 600 : 6_000
                    session[Session.kind] = id == "alice" ? "yoga" : "secret"
                    session[Session.key] = "\(id)-\(index)"
                    try session.set(Session.practitioner, to: practitioner)
                    try session.add(run, to: Session.importRuns)
                    if id == "bob" { bobs.append(session) }
                }
            }
            try await context.save()
            return bobs.map(\.objectID)
        }
        return (container, try await Practitioners.rowID(of: "alice", in: container), bobSessions)
    }

    /// Predicates that name Bob, by key path, through the import run, in a SUBQUERY, by a value only he has.
    static let namingBob = [
        #"practitioner.id == "bob""#,
        #"ANY importRuns.practitioner.id == "bob""#,
        #"SUBQUERY(importRuns, $run, $run.practitioner.id == "bob").@count > 0"#,
        #"kind == "secret" OR key BEGINSWITH "bob""#,
        #"practitioner._id != 0"#,
    ]

    private func scopedContext(_ container: PersistentContainer, alice: Int64) async throws -> ObjectContext {
        let context = container.newBackgroundContext(name: "alice")
        await context.setScope(try FetchScope(Practitioner.self, try FetchPredicate("_id == %@", alice)))
        return context
    }

    private func sessionKeys(_ container: PersistentContainer) async throws -> [String] {
        try await container.newBackgroundContext().perform { context in
            try context.fetch(FetchRequest(Session.self)).map { $0[Session.key] }.sorted()
        }
    }

    @Test(arguments: PracticeStore.all)
    func readsFindNothingOfBobs(_ store: PracticeStore) async throws {
        let (container, alice, _) = try await makeStore(store)
        defer { try? container.close() }
        let context = try await scopedContext(container, alice: alice)
        for format in Self.namingBob + ["TRUEPREDICATE"] {
            let predicate = try FetchPredicate(format)
            let found = try await context.perform { context in
                let request = FetchRequest(Session.self, predicate: predicate)
                let keys = try context.fetch(request).map { $0[Session.key] }
                let count = try context.count(for: request)
                var dictionary = request
                dictionary.properties = [.aggregate(.sum, of: "duration", as: "total"), .aggregate(.count, of: "duration", as: "n")]
                let totals = try context.fetchDictionaries(dictionary)
                var streamed: [String] = []
                var keyOnly = request
                keyOnly.properties = [.attribute("key")]
                try context.forEachRow(keyOnly) { values in if case .string(let key) = values[0] { streamed.append(key) } }
                var enumerated: [String] = []
                try context.enumerate(request) { batch in enumerated += batch.map { $0[Session.key] } }
                var scanned: [String] = []
                var inOrder = request
                inOrder.sortKeys = [.descending(Session.start.name)]
                try context.scanRows(inOrder, attributes: ["key"]) { row in
                    _ = row.withUTF8(0) { scanned.append(String(decoding: $0, as: UTF8.self)) }
                }
                return (keys, count, totals, streamed, enumerated, scanned)
            }
            let all = found.0 + found.3 + found.4 + found.5
            #expect(all.allSatisfy { $0.hasPrefix("alice-") }, "\(format): \(all)")
            #expect(found.1 == found.0.count, "\(format)")
            let total = found.2.first?["total"]
            #expect(total == .double(Double(found.0.count) * 600) || total == .integer(Int64(found.0.count) * 600) || found.0.isEmpty, "\(format): \(found.2)")
            if format == "TRUEPREDICATE" {
                #expect(found.0.count == 3)
                #expect(found.5 == ["alice-2", "alice-1", "alice-0"])
            }
        }
        let others = try await context.perform { context in
            (try context.fetch(FetchRequest(Practitioner.self)).map { $0[Practitioner.id] },
             try context.fetch(FetchRequest(ImportRun.self)).map { $0[ImportRun.file] },
             try context.fetch(FetchRequest(ImportRun.self, predicate: try FetchPredicate("ANY sessions.kind == 'secret'"))).count)
        }
        #expect(others.0 == ["alice"])
        #expect(others.1 == ["alice.csv"])
        #expect(others.2 == 0)
    }

    @Test(arguments: PracticeStore.all)
    func bobsObjectsAreNotThereByIDNorInAScan(_ store: PracticeStore) async throws {
        let (container, alice, bobSessions) = try await makeStore(store)
        defer { try? container.close() }
        let context = try await scopedContext(container, alice: alice)
        let (refused, scanned, scannedByID) = try await context.perform { context in
            var refused = 0
            for id in bobSessions {
                do { _ = try context.existingObject(with: id) } catch ContextError.objectNotFound { refused += 1 }
            }
            var scanned = 0
            try context.scanRows(of: Session.entity, attributes: ["key"]) { _ in scanned += 1 }
            var scannedByID = 0
            try context.scanRows(of: Session.entity, attributes: ["key"], rowIDs: bobSessions.compactMap(\.rowID)) { _ in scannedByID += 1 }
            return (refused, scanned, scannedByID)
        }
        #expect(refused == 3)
        #expect(scanned == 3)
        #expect(scannedByID == 0)
    }

    @Test(arguments: PracticeStore.all)
    func batchesLeaveBobsRowsAlone(_ store: PracticeStore) async throws {
        let (container, alice, _) = try await makeStore(store)
        defer { try? container.close() }
        let context = try await scopedContext(container, alice: alice)
        let bob = try await Practitioners.rowID(of: "bob", in: container)
        for format in Self.namingBob {
            let predicate = try FetchPredicate(format)
            let updated = try await context.batchUpdate(FetchRequest(Session.self, predicate: predicate), set: ["note": .string("changed")])
            #expect(updated.count == (format.hasPrefix("practitioner._id") ? 3 : 0), "\(format)")
            _ = try await context.batchDelete(FetchRequest(Session.self, predicate: try FetchPredicate("(\(format)) AND key BEGINSWITH 'bob'")))
        }
        await #expect(throws: ContextError.outsideScope(entity: "Session", relationship: "practitioner")) {
            try await context.batchUpdate(FetchRequest(Session.self), set: ["practitioner": .integer(bob)])
        }
        let deleted = try await context.batchDelete(FetchRequest(Session.self))
        #expect(deleted.count == 3)
        #expect(try await sessionKeys(container) == ["bob-0", "bob-1", "bob-2"])
        let notes = try await container.newBackgroundContext().perform { context in
            try context.count(for: FetchRequest(Session.self, predicate: try FetchPredicate("note != nil")))
        }
        #expect(notes == 0)
    }

    @Test(arguments: PracticeStore.all)
    func anExportAndLiveResultsHoldOnlyAlices(_ store: PracticeStore) async throws {
        let (container, alice, _) = try await makeStore(store)
        defer { try? container.close() }
        let context = try await scopedContext(container, alice: alice)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("scope-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: url) }
        let export = ExportOperation(FetchRequest(Session.self, predicate: try FetchPredicate(Self.namingBob[0] + " OR TRUEPREDICATE")),
                                     columns: ["key"], format: .csv, to: url, context: context)
        ContextOperationQueue(container: container, name: "export").addOperation(export)
        #expect(try await export.value == 3)
        let lines = try String(contentsOf: url, encoding: .utf8).split(whereSeparator: \.isNewline)
        #expect(lines == ["key", "alice-0", "alice-1", "alice-2"])

        let live = try await context.liveResults(for: FetchRequest(Session.self, sortedBy: [.ascending(Session.key)]))
        var snapshots = live.makeAsyncIterator()
        let first = await snapshots.next()
        #expect(first?.count == 3)
    }
}
