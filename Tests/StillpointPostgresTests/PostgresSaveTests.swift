import Foundation
@testable import StillpointCore
@testable import StillpointPostgres
import StillpointPostgresTestSupport
import Testing

/// Saves on PostgreSQL: permanent ids, version-checked updates and deletes, uniqueness clashes under the merge
/// policies, the change-log entry in the same transaction and its change set published after the commit.
@Suite("PostgreSQL saves", .serialized, .enabled(if: PostgresTestServer.isWanted))
struct PostgresSaveTests {
    let connection: PostgresConnection
    let entity = Practice.entity
    let entityRef = SaveTransaction.EntityRef(Practice.entity)
    let origin = StoreOrigin(process: "test-process", context: 7)

    init() throws {
        connection = try PostgresConnection(uri: try PostgresTestServer.shared().makeDatabase("saves"))
        try PostgresSchema(try Schema([Practice.self])).create(on: connection)
    }

    func transaction(_ policy: MergePolicy = .error, inserts: [ContiguousArray<AttributeValue>] = [],
                     updates: [SaveTransaction.Update] = [], deletes: [SaveTransaction.Delete] = []) -> SaveTransaction {
        SaveTransaction(
            author: "tester", origin: origin,
            inserts: inserts.map { SaveTransaction.Insert(id: .temporary(entityName: entity.name), entityRef: entityRef, values: $0) },
            updates: updates, deletes: deletes, defaultPolicy: policy, entityPolicies: [:])
    }

    func save(_ transaction: SaveTransaction, hub: ChangeSetHub = ChangeSetHub()) throws -> SaveTransaction.Outcome {
        try PostgresStoreConnection.writing(on: connection) { writer in try writer.save(transaction, hub: hub) }
    }

    func stored(_ id: Int64) throws -> (ContiguousArray<AttributeValue>, Int64)? {
        try PostgresStoreConnection.reading(on: connection) { try $0.storedRow(id: id, of: entity) }
    }

    func count() throws -> Int {
        try PostgresStoreConnection.reading(on: connection) { try $0.count(FetchRequest(Practice.self)) }
    }

    @Test func insertsGetPermanentIDsAndTheChangeLogEntryIsPublishedAfterCommit() throws {
        let start = try PostgresStoreConnection.reading(on: connection) { try $0.lastHistorySequence() }
        let hub = ChangeSetHub()
        let outcome = try save(transaction(inserts: [Practice.values(0), Practice.values(3), Practice.values(8)]), hub: hub)
        let ids = outcome.inserts.compactMap { $0?.id.rowID }
        #expect(ids.count == 3 && Set(ids).count == 3)
        #expect(try stored(ids[1])?.0 == Practice.values(3))
        #expect(try stored(ids[1])?.1 == 1)
        let changeSet = try #require(outcome.changeSet)
        #expect(hub.lastSequence == changeSet.sequence, "published once committed")
        #expect(changeSet.inserted.count == 3)
        // Another connection reads the entry from the log.
        let reader = try PostgresConnection(uri: try uri())
        var logged: [ChangeSet] = []
        for _ in 0..<500 where logged.isEmpty {
            logged = try PostgresStoreConnection.reading(on: reader) { try $0.changeSets(after: start, excludingProcess: nil) { _ in }.changeSets }
            if logged.isEmpty { Thread.sleep(forTimeInterval: 0.01) }
        }
        #expect(logged.map(\.inserted) == [changeSet.inserted])
        #expect(try PostgresStoreConnection.reading(on: reader) { try $0.changeSets(after: start, excludingProcess: "test-process") { _ in }.changeSets }.isEmpty)
        // The [c] copies were written with the row: a folded query finds it.
        let folded = FetchRequest(Practice.self, predicate: try FetchPredicate("name ==[cd] 'zazen'"))
        #expect(try PostgresStoreConnection.reading(on: connection) { try $0.count(folded) } == 1)
    }

    /// The database's URI, read back from the server (the connection keeps none with a password in it).
    func uri() throws -> String {
        let database = try connection.execute("SELECT current_database()").text(row: 0, column: 0) ?? ""
        return try PostgresTestServer.shared().uri(database: database)
    }

    @Test func versionCheckedUpdatesAndDeletes() throws {
        let ids = try save(transaction(inserts: [Practice.values(0), Practice.values(1)])).inserts.compactMap { $0?.id.rowID }
        var changed = Practice.values(0)
        changed[3] = .integer(99)
        let update = SaveTransaction.Update(id: ObjectID(entityName: entity.name, rowID: ids[0]), entityRef: entityRef,
                                            values: changed, readValues: Practice.values(0), version: 1)
        let outcome = try save(transaction(updates: [update]))
        #expect(outcome.changeSet?.changedAttributes == ["Practice": ["minutes"]])
        #expect(try stored(ids[0])?.0 == changed)
        #expect(try stored(ids[0])?.1 == 2)

        // The same update again reads version 1, which is gone: a conflict under .error, and nothing is written.
        var again = changed
        again[3] = .integer(5)
        let stale = SaveTransaction.Update(id: ObjectID(entityName: entity.name, rowID: ids[0]), entityRef: entityRef,
                                           values: again, readValues: Practice.values(0), version: 1)
        let deleteOther = SaveTransaction.Delete(id: ObjectID(entityName: entity.name, rowID: ids[1]), entityRef: entityRef,
                                                 version: 1, readValues: Practice.values(1))
        #expect(throws: SaveError.self) { try save(transaction(updates: [stale], deletes: [deleteOther])) }
        #expect(try stored(ids[0])?.0 == changed)
        #expect(try stored(ids[1]) != nil, "the delete in the failed save rolled back")

        // Under store-trump the stored change to minutes wins over the object's, which changed it too.
        let merged = try save(transaction(.mergeByPropertyStoreTrump, updates: [stale]))
        #expect(try stored(ids[0])?.0 == changed)
        #expect(try stored(ids[0])?.1 == 3)
        if case .written(let written) = merged.updates.first { #expect(written.version == 3) } else { Issue.record("not written") }

        let outcome2 = try save(transaction(deletes: [deleteOther]))
        if case .removed = outcome2.deletes.first {} else { Issue.record("not removed") }
        #expect(try stored(ids[1]) == nil)
        #expect(try count() == 1)
    }

    @Test func uniquenessClashesFollowThePolicy() throws {
        let first = try #require(try save(transaction(inserts: [Practice.values(2)])).inserts.first??.id.rowID)
        var same = Practice.values(2)      // the same uid
        same[1] = .string("Other")
        do {
            _ = try save(transaction(inserts: [same, Practice.values(4)]))
            Issue.record("a taken key was saved")
        } catch SaveError.validation(let failures) {
            #expect(failures.map(\.reason) == [.uniquenessViolation(attributes: ["uid"], values: [.integer(3)])])
        }
        #expect(try count() == 1, "nothing of the failed save stays")

        let merged = try save(transaction(.mergeByPropertyObjectTrump, inserts: [same]))
        #expect(merged.inserts.first??.id.rowID == first)
        #expect(try stored(first)?.0 == same)
        #expect(try stored(first)?.1 == 2)

        // An update onto another row's key is refused, and the save with it.
        let second = try #require(try save(transaction(inserts: [Practice.values(5)])).inserts.first??.id.rowID)
        var taken = Practice.values(5)
        taken[0] = .integer(3)
        let update = SaveTransaction.Update(id: ObjectID(entityName: entity.name, rowID: second), entityRef: entityRef,
                                            values: taken, readValues: Practice.values(5), version: 1)
        #expect(throws: SaveError.self) { try save(transaction(updates: [update])) }
        #expect(try stored(second)?.0 == Practice.values(5))
    }
}
