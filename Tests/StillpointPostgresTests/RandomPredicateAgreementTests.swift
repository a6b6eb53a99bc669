import Foundation
import PropertyBased
import StillpointCore
import StillpointSQLite
@testable import StillpointPostgres
import StillpointPostgresTestSupport
import Testing

/// Issue 26's property test: random predicates over random rows select the same rows in memory, in SQLite's SQL
/// and in PostgreSQL's SQL. Each case makes its rows and its predicates from one list of random choices
/// (``RandomRows``, ``RandomPredicate``), so that a failure shrinks to a short list.
@Suite("Random predicates over random rows", .serialized, .enabled(if: PostgresTestServer.isWanted))
struct RandomPredicateAgreementTests {
    static let predicatesPerCase = 12

    @Test func memorySQLiteAndPostgreSQLSelectTheSameRows() async throws {
        let connection = try PostgresConnection(uri: try PostgresTestServer.shared().makeDatabase("random_rows"))
        let schema = try Schema([Practice.self])
        try PostgresSchema(schema).create(on: connection)
        var compared = 0
        var partial = 0
        await propertyCheck(count: 40, input: Gen<UInt32>.value().array(of: 60...240)) { choices in
            var random = RandomPredicate(choices: choices)
            let rows = RandomRows.make(&random)
            try connection.execute("DELETE FROM \(SQLDialect.postgreSQL.quote(Practice.entity.name))")
            try PostgresRowInsert(Practice.entity).insert(rows, on: connection)
            let container = try PersistentContainer(schema: schema, location: .inMemory)
            let formats = (0..<Self.predicatesPerCase).map { _ in random.predicate(depth: 0) }
            let requests = try formats.map {
                FetchRequest(Practice.self, predicate: try FetchPredicate(format: $0, arguments: []), sortedBy: [.ascending(Practice.uid)])
            }
            let sqlite = try await container.performBackgroundTask { context in
                for values in rows {
                    let object = context.insert(Practice.self)
                    for (attribute, value) in zip(Practice.entity.attributes, values) {
                        try object.setValue(value, forKey: attribute.name)
                    }
                }
                try await context.save()
                return try requests.map { try context.fetch($0).map { $0[Practice.uid] } }
            }
            for ((format, request), sqliteUIDs) in zip(zip(formats, requests), sqlite) {
                let memoryUIDs = RandomRows.evaluatedUIDs(request.predicate ?? .true, rows: rows)
                #expect(memoryUIDs == sqliteUIDs, "memory and SQLite on \(format) over \(rows)")
                let postgresUIDs = try PostgresStoreConnection.reading(on: connection) { reader in
                    var uids: [Int64] = []
                    try reader.forEachObject(request, limit: nil, offset: nil, streaming: false) { _, _, values in
                        if case .integer(let uid) = values[0] { uids.append(uid) }
                    }
                    return uids
                }
                #expect(postgresUIDs == sqliteUIDs, "PostgreSQL and SQLite on \(format) over \(rows)")
                compared += 1
                if !sqliteUIDs.isEmpty, sqliteUIDs.count < rows.count { partial += 1 }
            }
        }
        #expect(compared == 40 * Self.predicatesPerCase)
        // Not vacuous: many predicates select some rows of their case and leave others.
        #expect(partial > compared / 5, "\(partial) of \(compared) predicates split their rows")
    }
}

/// Random rows of ``Practice`` from the choices of a ``RandomPredicate``: text that folds and holds LIKE's and
/// regular expressions' special characters, numbers with signs, zeros and nulls.
enum RandomRows {
    static let texts: [String?] = [nil, "", "Zazen", "zazen", "ZAZEN", "Café", "cafe", "CAFÉ", "Résumé", "resume", "Straße",
                                   "strasse", "a%b_c", "a*b?c[d]", "naïve Über", "Ωmega ǅ", "room 12", "med"]
    static let minutes: [Int64?] = [nil, 0, 5, 7, 12, 20, 25, 30, 60, -3]
    static let scores: [Double?] = [nil, 0, -0.5, 1.5, 2.25, 3, 1e-7, 7.75, -1]
    static let dates: [Double?] = [nil, 0, -86_400, 1_650_000_000.25, 1_700_000_000]
    static let flags: [Bool?] = [nil, true, false]

    /// Up to 12 rows; the uid of row `index` is `index + 1`.
    static func make(_ random: inout RandomPredicate) -> [ContiguousArray<AttributeValue>] {
        (0..<random.next(13)).map { index in
            [
                .integer(Int64(index + 1)), value(texts[random.next(texts.count)]), value(texts[random.next(texts.count)]),
                minutes[random.next(minutes.count)].map(AttributeValue.integer) ?? .null,
                scores[random.next(scores.count)].map(AttributeValue.double) ?? .null,
                dates[random.next(dates.count)].map { .date(Date(timeIntervalSince1970: $0)) } ?? .null,
                flags[random.next(flags.count)].map(AttributeValue.bool) ?? .null,
                .null, random.next(2) == 0 ? .null : .binary(Data([0, UInt8(index)])),
            ]
        }
    }

    private static func value(_ text: String?) -> AttributeValue {
        text.map(AttributeValue.string) ?? .null
    }

    /// The uids of the rows the in-memory evaluator matches.
    static func evaluatedUIDs(_ predicate: FetchPredicate, rows: [ContiguousArray<AttributeValue>]) -> [Int64] {
        let names = Practice.entity.attributes.map(\.name)
        return rows.indices.compactMap { index in
            let matches = predicate.evaluate { key in names.firstIndex(of: key).map { rows[index][$0] } ?? .null }
            return matches ? Int64(index + 1) : nil
        }
    }
}

/// Builds random predicates over ``Practice`` from a list of choices: text comparisons with every option,
/// LIKE, MATCHES, IN, BETWEEN, nil and Boolean tests, text functions, comparisons of two keys, the numeric
/// comparisons of ``RandomExpression``, and NOT, AND and OR over them.
struct RandomPredicate {
    private var numbers: RandomExpression

    init(choices: [UInt32]) {
        numbers = RandomExpression(choices: choices)
    }

    mutating func next(_ bound: Int) -> Int {
        numbers.next(bound)
    }

    mutating func element(_ words: [String]) -> String {
        words[next(words.count)]
    }

    mutating func predicate(depth: Int) -> String {
        guard depth < 3, next(3) == 0 else { return comparison() }
        switch next(3) {
        case 0: return "NOT (\(predicate(depth: depth + 1)))"
        case 1: return "(\(predicate(depth: depth + 1)) AND \(predicate(depth: depth + 1)))"
        default: return "(\(predicate(depth: depth + 1)) OR \(predicate(depth: depth + 1)))"
        }
    }

    mutating func comparison() -> String {
        let key = element(["name", "note"])
        let options = element(["", "[c]", "[d]", "[cd]"])
        let text = element(["'zazen'", "'CAFE'", "'café'", "'resume'", "'STRASSE'", "'a'", "''", "'m'", "'%'", "'_'", "'Ω'", "'über'"])
        switch next(12) {
        case 0, 1:
            return "\(key) \(element(["==", "!=", "BEGINSWITH", "ENDSWITH", "CONTAINS"]))\(options) \(text)"
        case 2: return "\(key) \(element(["<", "<=", ">", ">="]))\(options) \(text)"
        case 3: return "\(key) LIKE\(options) \(element(["'c*'", "'?azen'", "'*a*'", "'a%b_c'", "'a\\\\*b*'", "'*'", "'r?sum?'"]))"
        case 4: return "\(key) MATCHES\(element(["", "[c]"])) \(element(["'ca.*'", "'z.*n'", "'[a-z]+'", "'room \\\\d+'", "'.*e'", "'(za|ca)[a-z]*'"]))"
        case 5: return "\(key) IN\(options) {\(element(["'Zazen', 'cafe'", "'zazen', nil", "'résumé', 'STRASSE'", ""]))}"
        case 6: return "\(element(["minutes", "score", "at"])) \(element(["== nil", "!= nil"]))"
        case 7: return element(["done == YES", "done == NO", "done != YES", "done == nil", "data == nil", "data != nil"])
        case 8: return "\(element(["lowercase", "uppercase"]))(\(key)) \(element(["==", "BEGINSWITH", "!="])) \(text)"
        case 9: return "name \(element(["==", "!=", "<", ">="]))\(options) note"
        case 10: return "\(element(["minutes BETWEEN {0, 25}", "score BETWEEN {-1, 2}", "minutes IN {5, 20, 60}", "length(name) > 4"]))"
        default: return numbers.comparison()
        }
    }
}
