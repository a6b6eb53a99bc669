import Foundation
import StillpointCore
import StillpointSQLite
@testable import StillpointPostgres
import StillpointPostgresTestSupport
import Testing

/// The same fetch requests give the same rows, in the same order, from PostgreSQL as from an in-memory SQLite
/// store holding the same rows.
@Suite("PostgreSQL agrees with SQLite", .serialized, .enabled(if: PostgresTestServer.isWanted))
struct PostgresAgreementTests {
    let connection: PostgresConnection
    let container: PersistentContainer
    let schema: Schema

    init() throws {
        let uri = try PostgresTestServer.shared().makeDatabase("agreement")
        connection = try PostgresConnection(uri: uri)
        schema = try Schema([Practice.self])
        try PostgresSchema(schema).create(on: connection)
        try PostgresRowInsert(Practice.entity).insert(Practice.rows.indices.map(Practice.values), on: connection)
        container = try PersistentContainer(schema: schema, location: .inMemory)
    }

    /// Fills the SQLite store, then runs `body` in a context of it.
    func withSQLite<T: Sendable>(_ body: @Sendable (isolated ObjectContext) throws -> T) async throws -> T {
        try await container.performBackgroundTask { context in
            for index in Practice.rows.indices {
                let row = Practice.rows[index]
                let object = context.insert(Practice.self)
                object[Practice.uid] = Int64(index + 1)
                object[Practice.name] = row.name
                object[Practice.note] = row.note
                object[Practice.minutes] = row.minutes
                object[Practice.score] = row.score
                object[Practice.at] = row.at.map { Date(timeIntervalSince1970: $0) }
                object[Practice.done] = row.done
                object[Practice.token] = row.token
                object[Practice.data] = row.data
            }
            try await context.save()
            return try body(context)
        }
    }

    /// The uids of the rows `request` selects on PostgreSQL, in order.
    func postgresUIDs(_ request: FetchRequest, limit: Int? = nil, offset: Int? = nil) throws -> [Int64] {
        try PostgresStoreConnection.reading(on: connection) { reader in
            var uids: [Int64] = []
            try reader.forEachObject(request, limit: limit, offset: offset, streaming: false) { _, _, values in
                if case .integer(let uid) = values[0] { uids.append(uid) }
            }
            return uids
        }
    }

    @Test func everyPredicateSelectsTheSameRows() async throws {
        let requests = try Practice.predicates().map { FetchRequest(Practice.self, predicate: $0, sortedBy: [.ascending(Practice.uid)]) }
        let expected = try await withSQLite { context in try requests.map { try context.fetch($0).map { $0[Practice.uid] } } }
        for (request, uids) in zip(requests, expected) {
            #expect(try postgresUIDs(request) == uids, "\(request.predicate.map(String.init(describing:)) ?? "")")
            let count = try PostgresStoreConnection.reading(on: connection) { try $0.count(request) }
            #expect(count == uids.count, "count of \(request.predicate.map(String.init(describing:)) ?? "")")
            var ids: [Int64] = []
            try PostgresStoreConnection.reading(on: connection) { reader in try reader.forEachRowID(request) { ids.append($0) } }
            #expect(ids.count == uids.count)
        }
        // Not vacuous: the fixture makes most predicates select some rows and leave others.
        #expect(expected.filter { !$0.isEmpty && $0.count < Practice.rows.count }.count > expected.count * 3 / 4)
    }

    @Test func sortsWindowsAndNullsAgree() async throws {
        let sorts: [[SortKey]] = [
            [.ascending(Practice.name)], [.descending(Practice.name)], [.ascending(Practice.minutes)], [.descending(Practice.score)],
            [.ascending(Practice.done), .descending(Practice.at)], [.ascending(Practice.token)], [.descending(Practice.data)],
        ]
        let windows: [(Int?, Int?)] = [(nil, nil), (3, nil), (4, 2), (nil, 5), (0, nil), (-1, 3), (100, 100)]
        var requests: [(FetchRequest, Int?, Int?)] = []
        for keys in sorts {
            for (limit, offset) in windows {
                requests.append((FetchRequest(Practice.self, predicate: try FetchPredicate("minutes != 25"), sortedBy: keys), limit, offset))
            }
        }
        let cases = requests
        let expected = try await withSQLite { context in
            try cases.map { request, limit, offset in
                var windowed = request
                windowed.limit = limit
                windowed.offset = offset
                return try context.fetch(windowed).map { $0[Practice.uid] }
            }
        }
        for ((request, limit, offset), uids) in zip(requests, expected) {
            #expect(try postgresUIDs(request, limit: limit, offset: offset) == uids, "\(request.sortKeys) \(String(describing: limit)) \(String(describing: offset))")
        }
    }

    @Test func valuesReadBackAsWritten() throws {
        var rows: [Int64: ContiguousArray<AttributeValue>] = [:]
        var versions: Set<Int64> = []
        try PostgresStoreConnection.reading(on: connection) { reader in
            try reader.forEachObject(FetchRequest(Practice.self), limit: nil, offset: nil, streaming: true) { _, version, values in
                if case .integer(let uid) = values[0] { rows[uid] = values }
                versions.insert(version)
            }
        }
        #expect(rows.count == Practice.rows.count)
        #expect(versions == [1])
        for index in Practice.rows.indices {
            #expect(rows[Int64(index + 1)] == Practice.values(index), "row \(index + 1)")
        }
        try PostgresStoreConnection.reading(on: connection) { reader in
            var ids: [Int64] = []
            try reader.forEachRowID(FetchRequest(Practice.self, predicate: try FetchPredicate("uid <= 3"))) { ids.append($0) }
            var byID: [Int64] = []
            try reader.forEachObject(of: Practice.entity, rowIDs: ids + [999_999]) { rowID, _, _ in byID.append(rowID) }
            #expect(byID.sorted() == ids.sorted())
            let stored = try reader.storedRow(id: ids[0], of: Practice.entity)
            #expect(stored?.0 == Practice.values(0))
            #expect(stored?.1 == 1)
            #expect(try reader.storedRow(id: 999_999, of: Practice.entity) == nil)
        }
    }

    @Test func dictionariesAgree() async throws {
        var grouped = FetchRequest(Practice.self, predicate: try FetchPredicate("minutes != nil"))
        grouped.properties = [.attribute("done"), .aggregate(.sum, of: "minutes", as: "total"), .aggregate(.average, of: "score", as: "mean"),
                              .aggregate(.minimum, of: "name", as: "first"), .aggregate(.maximum, of: "at", as: "last"), .count(as: "n")]
        grouped.groupBy = ["done"]
        grouped.sortKeys = [.ascending("done")]
        var having = grouped
        having.having = try FetchPredicate("n >= 2 AND total < %@", 150)
        having.sortKeys = [.descending("total")]
        var windowed = FetchRequest(Practice.self, sortedBy: [.ascending(Practice.name), .ascending(Practice.uid)])
        windowed.properties = [.attribute("name"), .attribute("score")]
        windowed.limit = 5
        windowed.offset = 2
        var empty = FetchRequest(Practice.self, predicate: .false)
        empty.properties = [.aggregate(.average, of: "minutes", as: "mean"), .count(as: "n")]
        let requests = [grouped, having, windowed, empty]
        let expected = try await withSQLite { context in try requests.map { try context.fetchDictionaries($0) } }
        for (request, rows) in zip(requests, expected) {
            let columns = try DictionaryColumn.columns(of: request)
            var found: [[String: AttributeValue]] = []
            try PostgresStoreConnection.reading(on: connection) { reader in
                try reader.forEachDictionaryRow(request, columns: columns, streaming: false) { values in
                    found.append(Dictionary(uniqueKeysWithValues: zip(request.properties.map(\.key), values)))
                }
            }
            #expect(found == rows)
        }
    }

    @Test func schemaCreationIsIdempotent() throws {
        try PostgresSchema(schema).create(on: connection)
        try PostgresSchema(schema).create(on: connection)
        let count = try PostgresStoreConnection.reading(on: connection) { try $0.count(FetchRequest(Practice.self)) }
        #expect(count == Practice.rows.count)
        let unique = try connection.execute("SELECT count(*) FROM pg_indexes WHERE tablename = 'Practice'").integer(row: 0, column: 0)
        #expect(unique == 3, "the primary key, the unique uid and the name index, once each")
        #expect(throws: PostgresError.self) {
            try PostgresRowInsert(Practice.entity).insert([Practice.values(0)], on: connection)
        }
    }
}
