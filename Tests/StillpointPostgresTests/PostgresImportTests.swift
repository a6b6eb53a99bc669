import Foundation
@testable import StillpointCore
@testable import StillpointPostgres
import StillpointPostgresTestSupport
import Testing

/// Import batches on PostgreSQL: new keys inserted, stored keys updated where their values differ and left alone
/// where not, a key repeated in the batch applied over the row before, the change log in the same transaction.
@Suite("PostgreSQL imports", .serialized, .enabled(if: PostgresTestServer.isWanted))
struct PostgresImportTests {
    let connection: PostgresConnection
    let origin = StoreOrigin(process: "import-process", context: 2)
    var ids: [Int64] = []

    init() throws {
        connection = try PostgresConnection(uri: try PostgresTestServer.shared().makeDatabase("imports"))
        try PostgresSchema(try Schema([Practice.self])).create(on: connection)
        ids = try PostgresRowInsert(Practice.entity).insert([Practice.values(0), Practice.values(1)], on: connection)
    }

    func batch(_ records: [[String: AttributeValue]], key: [String]) throws -> ImportBatch {
        let plan = try ImportPlan(entity: Practice.entity, key: key)
        let rows = try records.compactMap { values -> ImportPlan.Row? in
            if case .row(let row) = try plan.check(ImportRecord(values)) { return row }
            return nil
        }
        return ImportBatch(plan: plan, rows: rows, author: "import", origin: origin)
    }

    func write(_ batch: ImportBatch, hub: ChangeSetHub = ChangeSetHub()) throws -> ImportBatch.Result {
        try PostgresStoreConnection.writing(on: connection) { try $0.write(batch, hub: hub) }
    }

    func stored(uid: Int64) throws -> ContiguousArray<AttributeValue>? {
        let request = FetchRequest(Practice.self, predicate: try FetchPredicate("uid == %@", uid))
        return try PostgresStoreConnection.reading(on: connection) { reader in
            var found: ContiguousArray<AttributeValue>?
            try reader.forEachObject(request, limit: nil, offset: nil, streaming: false) { _, _, values in found = values }
            return found
        }
    }

    @Test(arguments: [["uid"], ["uid", "name"]])
    func insertsUpdatesAndLeavesAlone(key: [String]) throws {
        let records: [[String: AttributeValue]] = [
            ["uid": .integer(1), "name": .string("Zazen"), "minutes": .integer(21)],        // stored, changed
            ["uid": .integer(2), "name": .string("zazen"), "minutes": .integer(30)],        // stored, unchanged
            ["uid": .integer(100), "name": .string("Neu"), "minutes": .integer(5)],         // new
            ["uid": .integer(101), "name": .string("Über")],                                 // new
            ["uid": .integer(100), "name": .string("Neu"), "minutes": .integer(6)],         // new, then changed
        ]
        let hub = ChangeSetHub()
        let result = try write(try batch(records, key: key), hub: hub)
        #expect(result.inserted == 2)
        #expect(result.updated == 2)
        #expect(result.unchanged == 1)
        #expect(result.skipped.isEmpty)
        let changeSet = try #require(result.changeSet)
        #expect(hub.lastSequence == changeSet.sequence)
        #expect(changeSet.updated == ObjectIDSet(entityName: "Practice", rowIDs: [ids[0]]), "a row inserted by the batch stays an insert")
        #expect(changeSet.inserted.count == 2)
        #expect(try stored(uid: 1)?[3] == .integer(21))
        #expect(try stored(uid: 100)?[3] == .integer(6))
        let folded = FetchRequest(Practice.self, predicate: try FetchPredicate("name ==[cd] 'uber'"))
        #expect(try PostgresStoreConnection.reading(on: connection) { try $0.count(folded) } == 1)

        let again = try write(try batch(records.dropLast().map { $0 }, key: key))
        #expect(again.inserted == 0)
        #expect(again.unchanged + again.updated == 4)
    }
}
