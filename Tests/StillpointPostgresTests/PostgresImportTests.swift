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
        try PostgresSchema(try Schema([Practice.self, Reading.self])).create(on: connection)
        ids = try PostgresRowInsert(Practice.entity).insert([Practice.values(0), Practice.values(1)], on: connection)
    }

    func batch(_ records: [[String: AttributeValue]], key: [String], entity: EntityDescription = Practice.entity) throws -> ImportBatch {
        let plan = try ImportPlan(entity: entity, key: key)
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

    /// The rows of `entity` on the server, by their first attribute: id, version and values.
    func storedRows(of entity: EntityDescription) throws -> [AttributeValue: (id: Int64, version: Int64, values: ContiguousArray<AttributeValue>)] {
        try PostgresStoreConnection.reading(on: connection) { reader in
            var rows: [AttributeValue: (id: Int64, version: Int64, values: ContiguousArray<AttributeValue>)] = [:]
            try reader.forEachObject(FetchRequest(entity), limit: nil, offset: nil, streaming: false) { id, version, values in
                rows[values[0]] = (id, version, values)
            }
            return rows
        }
    }

    func count(_ format: String, _ argument: String) throws -> Int {
        let request = FetchRequest(Practice.self, predicate: try FetchPredicate(format, argument))
        return try PostgresStoreConnection.reading(on: connection) { try $0.count(request) }
    }

    @Test(arguments: [["uid"], ["uid", "name"]])
    func aLargeBatchGoesInWhole(key: [String]) throws {
        // 20,000 new rows, two stored rows (one changed), and keys repeated later in the batch.
        var records: [[String: AttributeValue]] = (0..<20_000).map { (index: Int) -> [String: AttributeValue] in
            let name = index % 3 == 0 ? "Über \(index)" : "zazen \(index)"
            let at = Date(timeIntervalSince1970: 1_700_000_000 + Double(index))
            return ["uid": .integer(Int64(1_000 + index)), "name": .string(name), "minutes": .integer(Int64(index % 90)),
                    "score": .double(Double(index) / 4), "at": .date(at)]
        }
        records.append(["uid": .integer(1), "name": .string("Zazen"), "minutes": .integer(21)])  // stored, changed
        records.append(["uid": .integer(2), "name": .string("zazen"), "minutes": .integer(30)])  // stored, unchanged
        records.append(["uid": .integer(1_005), "name": .string("zazen 5"), "minutes": .integer(77)])  // new, then changed
        records.append(["uid": .integer(1_004), "name": .string("zazen 4"), "minutes": .integer(4)])  // new, then the same
        let hub = ChangeSetHub()
        let result = try write(try batch(records, key: key), hub: hub)
        #expect(result.inserted == 20_000)
        #expect(result.updated == 2)
        #expect(result.unchanged == 2)
        #expect(result.skipped.isEmpty)
        let changeSet = try #require(result.changeSet)
        #expect(changeSet.inserted.count == 20_000)
        #expect(changeSet.updated == ObjectIDSet(entityName: "Practice", rowIDs: [ids[0]]))
        #expect(hub.lastSequence == changeSet.sequence)

        let stored = try storedRows(of: Practice.entity)
        #expect(stored.count == 20_002)
        // Ids ascend in the batch's order, as one insert per row would draw them.
        let newIDs = (0..<20_000).compactMap { stored[.integer(Int64(1_000 + $0))]?.id }
        #expect(newIDs.count == 20_000 && newIDs == newIDs.sorted() && Set(newIDs).count == 20_000)
        #expect(Set(newIDs) == Set(changeSet.inserted.compactMap(\.rowID)))
        let changedTwice = try #require(stored[.integer(1_005)])
        #expect(changedTwice.values[3] == .integer(77))
        #expect(changedTwice.version == 2, "inserted, then updated once, as row by row")
        #expect(stored[.integer(1_004)]?.version == 1)
        #expect(stored[.integer(1)]?.values[3] == .integer(21))
        let last = try #require(stored[.integer(20_998)])
        #expect(last.values[1] == .string("Über 19998") && last.values[4] == .double(19_998.0 / 4))
        #expect(last.values[5] == .date(Date(timeIntervalSince1970: 1_700_019_998)))
        #expect(last.values[2] == .null && last.values[6] == .null, "unset attributes take their default")
        // The folded copies were filled: `[cd]` finds the accented rows by their plain spelling.
        #expect(try count("name BEGINSWITH[cd] %@", "uber ") == 6_667)

        // Again with every minute changed: the stored rows are updated in one statement, versions stepped.
        let changed = records.prefix(20_000).map { record in record.merging(["minutes": .integer(1_000)]) { $1 } }
        let again = try write(try batch(changed, key: key))
        #expect(again.updated == 20_000 && again.inserted == 0 && again.unchanged == 0)
        #expect(again.changeSet?.updated.count == 20_000 && again.changeSet?.inserted.isEmpty == true)
        let restored = try storedRows(of: Practice.entity)
        #expect(restored[.integer(1_005)]?.version == 3 && restored[.integer(1_005)]?.values[3] == .integer(1_000))
        #expect(restored[.integer(20_998)]?.version == 2 && restored[.integer(20_998)]?.values[1] == .string("Über 19998"))
        #expect(try count("name BEGINSWITH[cd] %@", "uber ") == 6_667)
    }

    @Test func textSurvivesCopyAsItIs() throws {
        let texts = ["tab\tinside", "new\nline", "carriage\rreturn", "back\\slash \\N \\t", "\\N", "", " ", "Ωmega ǅ Straße 🧘‍♀️",
                     "e\u{301} combining", "quote \" and ' and ,", "\u{1} \u{7F} \u{85} \u{2028}", String(repeating: "long ", count: 2_000)]
        let records: [[String: AttributeValue]] = texts.enumerated().map { index, text in
            ["uid": .integer(Int64(500 + index)), "name": .string(text), "note": .string(text), "token": .uuid(Practice.knownToken),
             "data": .binary(Data([0, 9, 10, 13, 92, 255])), "done": .bool(index % 2 == 0)]
        } + [["uid": .integer(600), "name": .null, "note": .string("null name")]]
        // Enough rows that the batch goes with COPY rather than one INSERT ... VALUES.
        let filler: [[String: AttributeValue]] = (0..<PostgresBulkInsert.copyThreshold).map { ["uid": .integer(Int64(10_000 + $0))] }
        let result = try write(try batch(records + filler, key: ["uid"]))
        #expect(result.inserted == texts.count + 1 + filler.count)
        let stored = try storedRows(of: Practice.entity)
        for (index, text) in texts.enumerated() {
            let values = try #require(stored[.integer(Int64(500 + index))])
            #expect(values.values[1] == .string(text), "\(text.debugDescription)")
            #expect(values.values[2] == .string(text))
            #expect(values.values[7] == .uuid(Practice.knownToken))
            #expect(values.values[8] == .binary(Data([0, 9, 10, 13, 92, 255])))
            #expect(values.values[6] == .bool(index % 2 == 0))
        }
        #expect(stored[.integer(600)]?.values[1] == .null, "NULL stays NULL, apart from the empty text")
        #expect(try count("name ==[c] %@", "ωMEGA ǅ STRAßE 🧘‍♀️") == 1)
        #expect(try count("name == %@", "") == 1)
    }

    @Test func textWithANULCharacterIsRefusedNamingTheAttribute() throws {
        let records: [[String: AttributeValue]] = [
            ["uid": .integer(700), "name": .string("fine")],
            ["uid": .integer(701), "name": .string("fine too"), "note": .string("cut\u{0}short")],
        ]
        #expect(throws: PostgresNULTextError(entity: "Practice", attribute: "note")) { try write(try batch(records, key: ["uid"])) }
        // The stored row's update goes row by row: refused the same way.
        #expect(throws: PostgresNULTextError(entity: "Practice", attribute: "name")) {
            try write(try batch([["uid": .integer(1), "name": .string("\u{0}")]], key: ["uid"]))
        }
        #expect(try storedRows(of: Practice.entity).count == 2, "nothing of either batch was written")
        #expect(PostgresNULTextError(entity: "Practice", attribute: "note").description.contains("Practice.note"))
        // A parameter with a NUL character never goes out cut short.
        #expect(throws: PostgresError.self) { try connection.execute("SELECT $1::text", ["a\u{0}b"]) }
        #expect(throws: PostgresError.self) { try connection.copy("COPY \"Reading\" (code) FROM STDIN", rows: [["a\u{0}b"]]) }
        #expect(try connection.execute("SELECT 1").rowCount == 1, "the connection left COPY mode")
    }

    @Test func aRefusedNewRowFailsAsItWouldRowByRow() throws {
        // Keyed by uid and name, not a unique key: every row is looked up, and the new (uid 2, "other") meets the
        // unique uid of a stored row when it goes in. The bulk attempt is undone and the rows go one by one, which
        // refuses that row with the stored row's key.
        let records: [[String: AttributeValue]] = [
            ["uid": .integer(800), "name": .string("new")],
            ["uid": .integer(1), "name": .string("Zazen"), "minutes": .integer(99)],
            ["uid": .integer(2), "name": .string("other")],
        ]
        do {
            _ = try write(try batch(records, key: ["uid", "name"]))
            Issue.record("the batch was written")
        } catch let error as SaveError {
            guard case .validation(let failures) = error, let failure = failures.first else {
                Issue.record("\(error)")
                return
            }
            #expect(failure.reason == .uniquenessViolation(attributes: ["uid"], values: [.integer(2)]))
            #expect(failure.objectID.isTemporary)
        }
        let stored = try storedRows(of: Practice.entity)
        #expect(stored.count == 2 && stored[.integer(1)]?.values[3] == Practice.values(0)[3], "the transaction rolled back")
    }

    @Test func withoutAUniqueIndexRowsAreCopiedStraightIn() throws {
        let records: [[String: AttributeValue]] = (0..<5_000).map { index in
            ["code": .string("R\(index % 4_000)"), "value": .double(Double(index)), "label": .string("tab\there \(index)")]
        }
        let result = try write(try batch(records, key: ["code"], entity: Reading.entity))
        #expect(result.inserted == 4_000)
        #expect(result.updated == 1_000, "the 1,000 codes repeated later update the rows the batch inserted")
        let changeSet = try #require(result.changeSet)
        #expect(changeSet.inserted.count == 4_000 && changeSet.updated.isEmpty)
        let stored = try storedRows(of: Reading.entity)
        #expect(stored.count == 4_000)
        #expect(stored[.string("R10")]?.values[1] == .double(4_010) && stored[.string("R10")]?.version == 2)
        #expect(stored[.string("R3999")]?.values[2] == .string("tab\there 3999") && stored[.string("R3999")]?.version == 1)
        let again = try write(try batch(records.suffix(1_000).map { $0 }, key: ["code"], entity: Reading.entity))
        #expect(again.inserted == 0 && again.unchanged == 1_000 && again.changeSet == nil)
    }
}
