import Foundation
@testable import StillpointCore
@testable import StillpointSQLite
@testable import StillpointPostgres
import StillpointPostgresTestSupport
import Testing

/// Batches on PostgreSQL report the rows they changed (`RETURNING`), write the change log, keep the folded
/// copies of text current, and resolve taken keys of inserted rows by the policy; the history can be purged.
@Suite("PostgreSQL batches and history", .serialized, .enabled(if: PostgresTestServer.isWanted))
struct PostgresBatchTests {
    let connection: PostgresConnection
    let origin = StoreOrigin(process: "batch-process", context: 1)
    var ids: [Int64] = []

    init() throws {
        connection = try PostgresConnection(uri: try PostgresTestServer.shared().makeDatabase("batches"))
        try PostgresSchema(try Schema([Practice.self])).create(on: connection)
        ids = try PostgresRowInsert(Practice.entity).insert(Practice.rows.indices.map(Practice.values), on: connection)
    }

    func run(_ batch: BatchStatement, policy: MergePolicy = .error, hub: ChangeSetHub = ChangeSetHub()) throws -> BatchResult {
        try PostgresStoreConnection.writing(on: connection) { try $0.run(batch, author: "batch", origin: origin, policy: policy, hub: hub) }
    }

    func uids(_ format: String) throws -> [Int64] {
        let request = FetchRequest(Practice.self, predicate: try FetchPredicate(format: format, arguments: []), sortedBy: [.ascending(Practice.uid)])
        return try PostgresStoreConnection.reading(on: connection) { reader in
            var uids: [Int64] = []
            try reader.forEachObject(request, limit: nil, offset: nil, streaming: false) { _, _, values in
                if case .integer(let uid) = values[0] { uids.append(uid) }
            }
            return uids
        }
    }

    @Test func deleteAndUpdateReportTheirRows() throws {
        let hub = ChangeSetHub()
        let deleted = try run(.delete(FetchRequest(Practice.self, predicate: try FetchPredicate("name ==[cd] 'cafe'"))), hub: hub)
        #expect(deleted.count == 3)
        #expect(deleted.changeSet?.deleted == ObjectIDSet(entityName: "Practice", rowIDs: [ids[3], ids[4], ids[5]]))
        #expect(hub.lastSequence == deleted.changeSet?.sequence)
        #expect(try uids("name ==[cd] 'cafe'").isEmpty)

        let updated = try run(.update(FetchRequest(Practice.self, predicate: try FetchPredicate("minutes > 40")),
                                      values: ["name": .string("LONG Sitting"), "done": .bool(true)]))
        #expect(updated.count == 2)
        #expect(updated.changeSet?.changedAttributes == ["Practice": ["name", "done"]])
        #expect(try uids("name ==[c] 'long sitting' AND done == YES") == [8, 14], "the folded copies follow the update")
        let versions = try connection.execute("SELECT DISTINCT \"_version\" FROM \"Practice\" WHERE \"minutes\" > 40").integer(row: 0, column: 0)
        #expect(versions == 2)

        let nothing = try run(.delete(FetchRequest(Practice.self, predicate: .false)))
        #expect(nothing.count == 0 && nothing.changeSet == nil)
    }

    @Test func insertsResolveTakenKeysByThePolicy() throws {
        let rows: [[String: AttributeValue]] = [["uid": .integer(100), "name": .string("Neu")], ["uid": .integer(1), "name": .string("Again")]]
        #expect(throws: SaveError.self) { try run(.insert(Practice.entity, rows: rows)) }
        #expect(try uids("uid == 100").isEmpty, "the failed batch rolled back")

        let kept = try run(.insert(Practice.entity, rows: rows), policy: .mergeByPropertyStoreTrump)
        #expect(kept.count == 1)
        #expect(try uids("name == 'Zazen'") == [1])

        let merged = try run(.insert(Practice.entity, rows: [["uid": .integer(2), "name": .string("Merged")]]), policy: .mergeByPropertyObjectTrump)
        #expect(merged.changeSet?.updated == ObjectIDSet(entityName: "Practice", rowIDs: [ids[1]]))
        #expect(try uids("name ==[c] 'MERGED' AND minutes == 30") == [2], "object-trump writes the named attributes only")
    }

    @Test func manyNewRowsGoInTogether() throws {
        let rows: [[String: AttributeValue]] = (0..<300).map { ["uid": .integer(Int64(1_000 + $0)), "name": .string("Über\t\($0)")] }
        let result = try run(.insert(Practice.entity, rows: rows))
        #expect(result.count == 300 && result.changeSet?.inserted.count == 300)
        #expect(try uids("name BEGINSWITH[cd] 'uber'") == (0..<300).map { Int64(1_000 + $0) }, "values and folded copies written")
        let ids = try connection.execute("SELECT \"_id\" FROM \"Practice\" WHERE uid >= 1000 ORDER BY uid")
        let ordered = (0..<ids.rowCount).compactMap { ids.integer(row: $0, column: 0) }
        #expect(ordered == ordered.sorted(), "ids ascend in the batch's order")
    }

    @Test func historyIsPurgedByPosition() throws {
        let start = try PostgresStoreConnection.reading(on: connection) { try $0.lastHistorySequence() }
        _ = try run(.delete(FetchRequest(Practice.self, predicate: try FetchPredicate("uid == 1"))))
        // The watermark is the server's: another suite's transaction may hold the entry back for a moment.
        var history = ChangeHistory(changeSets: [], token: HistoryToken(sequence: start))
        for _ in 0..<500 where history.isEmpty {
            history = try PostgresStoreConnection.reading(on: connection) { reader in try reader.completeHistory(after: start, path: "test") }
            if history.isEmpty { Thread.sleep(forTimeInterval: 0.01) }
        }
        let position = history.token.sequence
        #expect(history.map(\.deleted.count) == [1])
        try PostgresStoreConnection.writing(on: connection) { try $0.purgeHistory(through: position) }
        #expect(throws: StoreError.self) {
            try PostgresStoreConnection.reading(on: connection) { try $0.completeHistory(after: start, path: "test") }
        }
        let after = try PostgresStoreConnection.reading(on: connection) { try $0.completeHistory(after: position, path: "test") }
        #expect(after.isEmpty)
        #expect(try connection.execute("SELECT count(*) FROM \(PostgresChangeLog.table)").integer(row: 0, column: 0) == 0)
    }
}
