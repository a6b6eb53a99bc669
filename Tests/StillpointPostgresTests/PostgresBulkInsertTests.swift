import Foundation
@testable import StillpointCore
@testable import StillpointPostgres
import StillpointPostgresTestSupport
import Testing
import StillpointSQL

/// New rows in bulk, through `INSERT ... VALUES` (a few) and `COPY` (many): the text as it was, ids ascending in the
/// rows' order, and a row whose key is taken (by a stored row or an earlier row) left out, as alone.
@Suite("PostgreSQL bulk inserts", .serialized, .enabled(if: PostgresTestServer.isWanted))
struct PostgresBulkInsertTests {
    let connection: PostgresConnection

    init() throws {
        connection = try PostgresConnection(uri: try PostgresTestServer.shared().makeDatabase("bulk"))
        try PostgresSchema(try Schema([Practice.self, Reading.self])).create(on: connection)
        try PostgresRowInsert(Practice.entity).insert([Practice.values(0)], on: connection)  // uid 1
    }

    static let texts = ["tab\tinside", "new\nline", "carriage\rreturn", "back\\slash \\N \\t", "\\N", "", " ", "Ωmega ǅ Straße 🧘‍♀️",
                        "e\u{301} combining", "quote \" and ' and ,", "\u{1} \u{7F} \u{85} \u{2028}"]

    func rows(_ count: Int, firstUID: Int64) -> [ContiguousArray<AttributeValue>] {
        (0..<count).map { index in
            let text = Self.texts[index % Self.texts.count]
            return [.integer(firstUID + Int64(index)), .string(text), .string(text), .integer(Int64(index)), .double(Double(index) / 3),
                    .date(Date(timeIntervalSince1970: Double(index) * 0.001)), .bool(index % 2 == 0), .uuid(Practice.knownToken),
                    .binary(Data([0, 9, 10, 13, 92, UInt8(index % 256)]))]
        }
    }

    func read(_ ids: [Int64]) throws -> [ContiguousArray<AttributeValue>] {
        try PostgresStoreConnection.reading(on: connection) { reader in
            var byID: [Int64: ContiguousArray<AttributeValue>] = [:]
            try reader.forEachObject(of: Practice.entity, rowIDs: ids) { id, _, values in byID[id] = values }
            return ids.compactMap { byID[$0] }
        }
    }

    @Test(arguments: [5, PostgresBulkInsert.copyThreshold + 50])
    func rowsGoInAsTheyAre(count: Int) throws {
        var rows = rows(count, firstUID: 100)
        rows.insert(Practice.values(0), at: 2)             // uid 1: stored already
        rows.append(rows[count - 1])                        // repeats an earlier row's uid
        let ids = try connection.transaction { try PostgresBulkInsert(Practice.entity, on: connection).insert(rows) }
        #expect(ids.count == rows.count)
        #expect(ids[2] == nil && ids.last == .some(nil), "the taken keys were left out")
        let written = ids.compactMap { $0 }
        #expect(written.count == count && written == written.sorted())
        let expected = rows.enumerated().filter { ids[$0.offset] != nil }.map(\.element)
        #expect(try read(written) == expected)
        let folded = FetchRequest(Practice.self, predicate: try FetchPredicate("name ==[c] %@", "ωMEGA ǅ STRAßE 🧘‍♀️"))
        #expect(try PostgresStoreConnection.reading(on: connection) { try $0.count(folded) } == (count + Self.texts.count - 8) / Self.texts.count)
    }

    @Test(arguments: [5, PostgresBulkInsert.copyThreshold + 50])
    func withoutAUniqueIndexEveryRowGoesIn(count: Int) throws {
        let rows: [ContiguousArray<AttributeValue>] = (0..<count).map { [.string("same"), .double(Double($0)), .null] }
        let ids = try connection.transaction { try PostgresBulkInsert(Reading.entity, on: connection).insert(rows) }
        #expect(ids.compactMap { $0 }.count == count)
        let stored = try PostgresStoreConnection.reading(on: connection) { try $0.count(FetchRequest(Reading.self)) }
        #expect(stored == count)
    }

    /// Each folded copy is the folding's own, whether the text folds to itself (lower-case ASCII) or not.
    @Test(arguments: [5, PostgresBulkInsert.copyThreshold + 50])
    func foldedCopiesAreTheFoldingsOwn(count: Int) throws {
        let names = ["zazen", "Zazen", "CAFÉ au lait", "s-12", "", "Ωmega ǅ Straße"]
        var rows = rows(count, firstUID: 1_000)
        for index in rows.indices { rows[index][1] = .string(names[index % names.count]) }
        let ids = try connection.transaction { try PostgresBulkInsert(Practice.entity, on: connection).insert(rows) }.compactMap { $0 }
        #expect(ids.count == count)
        let columns = (["name"] + SQLDialect.foldFlags.map { SQLDialect.foldedColumnName("name", flags: $0) })
            .map(SQLDialect.postgreSQL.quote).joined(separator: ", ")
        let stored = try connection.execute("SELECT \(columns) FROM \"Practice\" WHERE \"_id\" >= $1 ORDER BY \"_id\"", [String(ids[0])])
        #expect(stored.rowCount == count)
        for row in 0..<stored.rowCount {
            let name = try #require(stored.text(row: row, column: 0))
            let copies = SQLDialect.foldFlags.indices.map { stored.text(row: row, column: $0 + 1) }
            #expect(copies == SQLDialect.foldFlags.map { TextFolding.fold(name, flags: $0) }, "\(name)")
        }
    }

    @Test func nulTextIsRefusedBeforeAnythingIsSent() throws {
        var rows = rows(3, firstUID: 100)
        rows[1][2] = .string("a\u{0}b")
        #expect(throws: PostgresNULTextError(entity: "Practice", attribute: "note")) {
            try connection.transaction { try PostgresBulkInsert(Practice.entity, on: connection).insert(rows) }
        }
    }
}
