import Foundation
@testable import StillpointCore
@testable import StillpointPostgres
import StillpointPostgresTestSupport
import Testing

/// Large reads on PostgreSQL stream through a server-side cursor, a chunk at a time, as they do on SQLite: a
/// report's digest scan of a million sessions held libpq's whole result (about 280 bytes a session) before.
@Suite("PostgreSQL scans", .enabled(if: PostgresTestServer.isWanted))
struct PostgresScanTests {
    enum Reading: Entity {
        static let uid = Attribute<Int>("uid")
        static let kind = Attribute<String>("kind")
        static let entity = EntityDescription("Reading", attributes: [uid, kind])
    }

    /// More rows than two chunks, so that a scan fetches three times.
    static let count = PostgresCursor.chunk * 2 + 17

    private func makeStore() async throws -> (PersistentContainer, PostgresConnection) {
        let uri = try PostgresTestServer.shared().makeDatabase("scan")
        let container = try PersistentContainer(schema: try Schema([Reading.self]), postgres: uri)
        try await container.performBackgroundTask { context in
            _ = try await context.batchInsert(Reading.entity, rows: (1...Self.count).map { ["uid": .integer(Int64($0)), "kind": .string("kind \($0 % 7)")] })
        }
        return (container, try PostgresConnection(uri: uri))
    }

    /// The cursors open on `connection` now.
    private static func openCursors(on connection: PostgresConnection) throws -> Int64? {
        try connection.execute("SELECT count(*) FROM pg_cursors").integer(row: 0, column: 0)
    }

    @Test func aScanReadsEveryRowThroughACursorAndLetsItsBodyRunStatements() async throws {
        let (_, connection) = try await makeStore()
        var uids: [Int64] = [], kinds: Set<String> = [], cursors: Set<Int64?> = []
        try PostgresStoreConnection.reading(on: connection) { reader in
            try reader.scanRows(of: Reading.entity, attributes: ["kind", "uid"], rowIDs: nil) { row in
                uids.append(Int64(row.double(1) ?? 0))
                _ = row.withUTF8(0) { kinds.insert(String(decoding: $0, as: UTF8.self)) }
                if uids.count % 1_000 == 1 { cursors.insert(try Self.openCursors(on: connection)) }
            }
            #expect(try Self.openCursors(on: connection) == 0)
        }
        #expect(uids.sorted() == (1...Int64(Self.count)).map { $0 })
        #expect(kinds == Set((0..<7).map { "kind \($0)" }))
        #expect(cursors == [1])
    }

    @Test func aScanOfSomeRowsReadsThemAlone() async throws {
        let (_, connection) = try await makeStore()
        var ids: [Int64] = []
        try PostgresStoreConnection.reading(on: connection) { reader in
            try reader.scanRows(of: Reading.entity, attributes: ["uid"], rowIDs: [3, 5, 4_000]) { ids.append($0.rowID) }
            try reader.scanRows(of: Reading.entity, attributes: ["uid"], rowIDs: []) { ids.append($0.rowID) }
            #expect(throws: SchemaError.self) { try reader.scanRows(of: Reading.entity, attributes: ["nope"], rowIDs: nil) { _ in } }
        }
        #expect(ids.sorted() == [3, 5, 4_000])
    }

    /// A scan of the rows a request matches (a scoped context's scan: one practitioner's sessions) is one statement
    /// and one round trip (the first of its transaction, which takes the `BEGIN` with it), no cursor, and reads those
    /// rows alone; its body may run statements of its own.
    @Test func aScanOfTheRowsARequestMatchesIsOneStatement() async throws {
        let (container, _) = try await makeStore()
        let statements = PostgresStatementCounter()
        let connection = try PostgresConnection(uri: container.store.location.address, countingIn: statements)
        var uids: [Int64] = [], kinds: Set<String> = [], sent = (0, 0), cursors: Set<Int64?> = []
        try PostgresStoreConnection.reading(on: connection) { reader in
            let request = FetchRequest(Reading.self, predicate: try FetchPredicate("kind == %@ AND uid <= %@", "kind 3", 100))
            let before = (statements.count, statements.roundTrips)
            try reader.scanRows(request, attributes: ["kind", "uid"]) { row in
                if uids.isEmpty { sent = (statements.count - before.0, statements.roundTrips - before.1) }
                uids.append(Int64(row.double(1) ?? 0))
                _ = row.withUTF8(0) { kinds.insert(String(decoding: $0, as: UTF8.self)) }
                cursors.insert(try Self.openCursors(on: connection))
            }
            #expect(throws: SchemaError.self) { try reader.scanRows(request, attributes: ["nope"]) { _ in } }
        }
        #expect(uids.sorted() == (1...100).filter { $0 % 7 == 3 }.map(Int64.init))
        #expect(kinds == ["kind 3"])
        #expect(sent == (2, 1))
        #expect(cursors == [0])
    }

    enum Typed: Entity {
        static let text = Attribute<String?>("text")
        static let integer = Attribute<Int?>("integer")
        static let double = Attribute<Double?>("double")
        static let date = Attribute<Date?>("date")
        static let flag = Attribute<Bool?>("flag")
        static let uuid = Attribute<UUID?>("uuid")
        static let data = Attribute<Data?>("data")
        static let entity = EntityDescription("Typed", attributes: [text, integer, double, date, flag, uuid, data])
    }

    /// The rows a request matches, streamed in its order (the batch job's scan of every session): through a cursor,
    /// a chunk at a time, read in place, in the request's order (then row ids); its body may run statements.
    @Test func anOrderedStreamingScanReadsTheRowsInTheRequestsOrderThroughACursor() async throws {
        let (_, connection) = try await makeStore()
        var rows: [(kind: String, uid: Int64, rowID: Int64)] = [], cursors: Set<Int64?> = []
        try PostgresStoreConnection.reading(on: connection) { reader in
            let request = FetchRequest(Reading.self, predicate: try FetchPredicate("uid > %@", 10), sortedBy: [.descending("kind"), .ascending("uid")])
            try reader.scanRows(request, attributes: ["kind", "uid"], streaming: true) { row in
                rows.append((row.withUTF8(0) { String(decoding: $0, as: UTF8.self) } ?? "", row.integer(1) ?? 0, row.rowID))
                if rows.count % 1_000 == 1 { cursors.insert(try Self.openCursors(on: connection)) }
            }
            #expect(try Self.openCursors(on: connection) == 0)
        }
        let expected = (11...Int64(Self.count)).map { (kind: "kind \($0 % 7)", uid: $0) }
            .sorted { $0.kind != $1.kind ? $0.kind > $1.kind : $0.uid < $1.uid }
        #expect(rows.map(\.kind) == expected.map(\.kind))
        #expect(rows.map(\.uid) == expected.map(\.uid))
        #expect(rows.map(\.rowID) == expected.map(\.uid))
        #expect(cursors == [1])
    }

    /// A scan reads libpq's text in place (no value made per row): each column gives the number or the text the
    /// values every other read makes would give, nulls, fractions, large numbers and infinities included.
    @Test func aScanReadsEachTypeInPlaceAsTheValuesReadIt() async throws {
        let uri = try PostgresTestServer.shared().makeDatabase("scantypes")
        let container = try PersistentContainer(schema: try Schema([Typed.self]), postgres: uri)
        defer { try? container.close() }
        let rows: [[String: AttributeValue]] = [
            ["text": .string("yoga"), "integer": .integer(42), "double": .double(1.5), "date": .date(Date(timeIntervalSince1970: 1_789_000_000)),
             "flag": .bool(true), "uuid": .uuid(UUID()), "data": .binary(Data([1, 2]))],
            ["text": .string("Äsana, \"quoted\"\t"), "integer": .integer(Int64.min), "double": .double(.infinity),
             "date": .date(Date(timeIntervalSince1970: -0.25)), "flag": .bool(false)],
            ["text": .string(""), "integer": .integer(Int64.max), "double": .double(-1e300), "date": .date(Date(timeIntervalSince1970: 1.234_567_890_123_456_8e17))],
            [:],
        ]
        try await container.performBackgroundTask { context in _ = try await context.batchInsert(Typed.entity, rows: rows) }
        let attributes = ["text", "integer", "double", "date", "flag", "uuid", "data"]
        typealias Read = (rowID: Int64, numbers: [Double?], texts: [String?], nulls: [Bool])
        func read(_ row: borrowing ScannedRow) -> Read {
            (row.rowID, attributes.indices.map { row.double($0) },
             attributes.indices.map { row.withUTF8($0) { String(decoding: $0, as: UTF8.self) } }, attributes.indices.map { row.isNull($0) })
        }
        var inPlace: [Read] = [], fromValues: [Read] = []
        let connection = try PostgresConnection(uri: uri)
        try PostgresStoreConnection.reading(on: connection) { reader in
            try reader.scanRows(FetchRequest(Typed.entity), attributes: attributes) { inPlace.append(read($0)) }
            try reader.forEachObject(FetchRequest(Typed.entity), limit: nil, offset: nil, streaming: false) { rowID, _, values in
                fromValues.append(read(ScannedRow(rowID: rowID, values: values)))
            }
        }
        #expect(inPlace.count == rows.count)
        #expect(inPlace.map(\.rowID).sorted() == fromValues.map(\.rowID).sorted())
        for row in inPlace {
            let expected = try #require(fromValues.first { $0.rowID == row.rowID })
            #expect(row.numbers == expected.numbers && row.texts == expected.texts && row.nulls == expected.nulls, "row \(row.rowID)")
        }
        #expect(inPlace.contains { $0.numbers[1] == Double(Int64.min) && $0.numbers[2] == .infinity && $0.numbers[3] == -0.25 })
    }

    /// `enumerate` and the other streaming object reads too; a read that is not a stream keeps reading the whole
    /// result at once.
    @Test func streamingObjectReadsGoThroughACursor() async throws {
        let (_, connection) = try await makeStore()
        var streamed = 0, whole = 0, cursors: Set<Int64?> = []
        try PostgresStoreConnection.reading(on: connection) { reader in
            try reader.forEachObject(FetchRequest(Reading.self), limit: nil, offset: nil, streaming: true) { _, _, values in
                streamed += 1
                if streamed == 1 { cursors.insert(try Self.openCursors(on: connection)) }
                #expect(values.count == 2)
            }
            try reader.forEachObject(FetchRequest(Reading.self), limit: 10, offset: nil, streaming: false) { _, _, _ in
                whole += 1
                if whole == 1 { cursors.insert(try Self.openCursors(on: connection).map { -$0 }) }
            }
        }
        #expect(streamed == Self.count && whole == 10)
        #expect(cursors == [1, 0])
    }
}
