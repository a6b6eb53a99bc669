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

    func update(_ id: Int64, _ index: Int, minutes: Int64, version: Int64 = 1) -> SaveTransaction.Update {
        var values = Practice.values(index)
        values[3] = .integer(minutes)
        return SaveTransaction.Update(id: ObjectID(entityName: entity.name, rowID: id), entityRef: entityRef, values: values,
                                      readValues: Practice.values(index), version: version)
    }

    func delete(_ id: Int64, _ index: Int, version: Int64) -> SaveTransaction.Delete {
        SaveTransaction.Delete(id: ObjectID(entityName: entity.name, rowID: id), entityRef: entityRef, version: version,
                               readValues: Practice.values(index))
    }

    @Test func manyRowsOfAnEntityGoInOneStatementWithTheOutcomeOfOneByOne() throws {
        // Inserts: ids ascend in the save's order, values and folded copies stored, version 1.
        let indices = Array(Practice.rows.indices)
        let ids = try save(transaction(inserts: indices.map(Practice.values))).inserts.compactMap { $0?.id.rowID }
        #expect(ids.count == indices.count && ids == ids.sorted())
        for (index, id) in zip(indices, ids) {
            #expect(try stored(id)?.0 == Practice.values(index))
            #expect(try stored(id)?.1 == 1)
        }
        let folded = FetchRequest(Practice.self, predicate: try FetchPredicate("name ==[cd] 'cafe'"))
        #expect(try PostgresStoreConnection.reading(on: connection) { try $0.count(folded) } == 3)

        // Updates: two of ten read a version that is gone. Under .error they are conflicts and nothing is written.
        let updates = (0..<10).map { update(ids[$0], $0, minutes: 100 + Int64($0), version: $0 >= 8 ? 7 : 1) }
        do {
            _ = try save(transaction(updates: updates))
            Issue.record("stale updates were saved")
        } catch SaveError.conflicts(let conflicts) {
            #expect(conflicts.map(\.objectID.rowID) == [ids[8], ids[9]])
        }
        #expect(try stored(ids[0])?.1 == 1, "the save rolled back")
        // Under store-trump the stale two are merged over what is stored (which the object's change wins, as the
        // store did not change minutes) and written at the stored version.
        let hub = ChangeSetHub()
        let outcome = try save(transaction(.mergeByPropertyStoreTrump, updates: updates), hub: hub)
        for (offset, result) in outcome.updates.enumerated() {
            guard case .written(let written) = result else {
                Issue.record("update \(offset) was not written")
                continue
            }
            #expect(written.version == 2 && written.values[3] == .integer(100 + Int64(offset)))
            #expect(try stored(ids[offset])?.0 == written.values)
            #expect(try stored(ids[offset])?.1 == 2)
        }
        #expect(outcome.changeSet?.updated.count == 10)
        #expect(outcome.changeSet?.changedAttributes == ["Practice": ["minutes"]])
        #expect(hub.lastSequence == outcome.changeSet?.sequence)

        // Deletes: two of six read version 1, which is gone.
        let deletes = (0..<6).map { delete(ids[$0], $0, version: $0 < 4 ? 2 : 1) }
        #expect(throws: SaveError.self) { try save(transaction(deletes: deletes)) }
        #expect(try count() == indices.count)
        let removed = try save(transaction(.overwrite, deletes: deletes))
        #expect(removed.deletes.allSatisfy { if case .removed = $0 { true } else { false } })
        #expect(removed.changeSet?.deleted.count == 6)
        #expect(try count() == indices.count - 6)
        // Under overwrite a stale delete removes its row anyway; rows the save did not name stay.
        #expect(try stored(ids[4]) == nil && stored(ids[6]) != nil)
    }

    @Test func aTakenKeyAmongManyInsertsIsSettledRowByRow() throws {
        let first = try #require(try save(transaction(inserts: [Practice.values(2)])).inserts.first??.id.rowID)
        var same = Practice.values(2)  // uid 3, taken
        same[1] = .string("Other")
        let many = [Practice.values(0), Practice.values(1), same, Practice.values(3), Practice.values(4)]
        do {
            _ = try save(transaction(inserts: many))
            Issue.record("a taken key was saved")
        } catch SaveError.validation(let failures) {
            #expect(failures.map(\.reason) == [.uniquenessViolation(attributes: ["uid"], values: [.integer(3)])])
        }
        #expect(try count() == 1, "nothing of the failed save stays")

        let merged = try save(transaction(.mergeByPropertyObjectTrump, inserts: many))
        let ids = merged.inserts.map { $0?.id.rowID }
        #expect(ids[2] == first, "merged into the stored row")
        #expect(merged.inserts[2]?.merged?.version == 2)
        let newIDs = [ids[0], ids[1], ids[3], ids[4]].compactMap { $0 }
        #expect(newIDs.count == 4 && newIDs == newIDs.sorted() && !newIDs.contains(first))
        #expect(try stored(first)?.0 == same)
        #expect(try count() == 5)
        #expect(merged.changeSet?.inserted.count == 4 && merged.changeSet?.updated.count == 1)
    }

    @Test func updatesThatChangeAUniqueKeyGoOneByOne() throws {
        let ids = try save(transaction(inserts: (0..<5).map(Practice.values))).inserts.compactMap { $0?.id.rowID }
        func renumber(_ offset: Int64) -> [SaveTransaction.Update] {
            (0..<5).map { index in
                var values = Practice.values(index)
                values[0] = .integer(Int64(index + 1) + offset)
                return SaveTransaction.Update(id: ObjectID(entityName: entity.name, rowID: ids[index]), entityRef: entityRef,
                                              values: values, readValues: Practice.values(index), version: 1)
            }
        }
        // uid 1 → 2 meets the row that still holds 2, as it would one by one.
        do {
            _ = try save(transaction(updates: renumber(1)))
            Issue.record("a taken key was saved")
        } catch SaveError.validation(let failures) {
            #expect(failures.count == 4)
            #expect(failures.first?.objectID.rowID == ids[0])
        }
        #expect(try stored(ids[0])?.0 == Practice.values(0))
        let outcome = try save(transaction(updates: renumber(100)))
        #expect(outcome.changeSet?.updated.count == 5)
        #expect(try stored(ids[4])?.0[0] == .integer(105))
    }
}
