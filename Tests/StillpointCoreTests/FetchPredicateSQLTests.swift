import Foundation
import GRDB
import Testing
@testable import StillpointCore
@testable import StillpointSQLite
import StillpointSQL

/// The SQL that `FetchPredicate` compiles to, run against a real SQLite database, must select exactly the rows
/// the in-memory evaluator selects.
@Suite("FetchPredicate SQL")
struct FetchPredicateSQLTests {
    // MARK: Fixture

    static let attributeTypes: [String: AttributeType] = [
        "kind": .string, "title": .string, "tag": .string, "duration": .integer, "score": .double,
        "done": .bool, "start": .date, "uid": .uuid, "blob": .binary,
    ]

    static let day0 = Date(timeIntervalSince1970: 1_700_000_000)
    static let uuids = (0..<5).map { UUID(uuidString: "00000000-0000-0000-0000-00000000000\($0)")! }

    /// Rows as the store reads them back: dates as `.date`, UUIDs as `.uuid`, bools as `.bool`.
    static let rows: [Int64: [String: AttributeValue]] = [
        1: ["kind": .string("yoga"), "title": .string("Morning Flow"), "tag": .string("50%_off"), "duration": .integer(600),
            "score": .double(4.5), "done": .bool(true), "start": .date(day0), "uid": .uuid(uuids[0]), "blob": .binary(Data([1, 2]))],
        2: ["kind": .string("Yoga"), "title": .string("café stretch"), "tag": .string("a*b?c[d]"), "duration": .integer(1200),
            "score": .double(3), "done": .bool(false), "start": .date(day0.addingTimeInterval(86400)), "uid": .uuid(uuids[1])],
        3: ["kind": .string("run"), "title": .string("Évening run"), "tag": .string("100%"), "duration": .integer(1800),
            "done": .bool(true), "start": .date(day0.addingTimeInterval(2 * 86400))],
        4: [:],
        5: ["kind": .string("swim"), "title": .string("naïve laps"), "tag": .string("x_y"), "duration": .integer(900),
            "score": .double(5), "done": .bool(false), "start": .date(day0.addingTimeInterval(-3600)), "uid": .uuid(uuids[2])],
        6: ["kind": .string("YOGA"), "title": .string("Cafe"), "tag": .string("[abc]"), "duration": .integer(600),
            "score": .double(4.5), "done": .bool(true), "start": .date(day0), "uid": .uuid(uuids[3]), "blob": .binary(Data([3]))],
        7: ["kind": .string("run"), "title": .string("ümlaut Über"), "tag": .string(""), "duration": .integer(0),
            "score": .double(-1.5), "done": .bool(false), "start": .date(day0.addingTimeInterval(0.5)), "uid": .uuid(uuids[4])],
    ]

    /// The store's binding convention: dates as seconds since 1970, UUIDs as their string, bools as 0/1.
    private static func databaseValue(_ value: AttributeValue) -> DatabaseValue {
        switch value {
        case .null: return .null
        case .integer(let value): return value.databaseValue
        case .double(let value): return value.databaseValue
        case .string(let value): return value.databaseValue
        case .bool(let value): return (value ? 1 : 0).databaseValue
        case .date(let value): return value.timeIntervalSince1970.databaseValue
        case .uuid(let value): return value.uuidString.databaseValue
        case .binary(let value): return value.databaseValue
        }
    }

    private static func makeDatabase() throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.prepareDatabase { db in SQLFunctions.register(in: db) }
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE session (id INTEGER PRIMARY KEY, kind TEXT, title TEXT, tag TEXT, duration INTEGER,
                                      score REAL, done INTEGER, start REAL, uid TEXT, blob BLOB)
                """)
            let columns = attributeTypes.keys.sorted()
            for (id, values) in rows {
                let placeholders = Array(repeating: "?", count: columns.count + 1).joined(separator: ", ")
                try db.execute(
                    sql: "INSERT INTO session (id, \(columns.joined(separator: ", "))) VALUES (\(placeholders))",
                    arguments: StatementArguments([id.databaseValue] + columns.map { databaseValue(values[$0] ?? .null) }))
            }
        }
        return dbQueue
    }

    private static func resolve(_ key: String) throws -> PredicateKeyResolution {
        guard let type = attributeTypes[key] else {
            throw FetchPredicateError.unknownAttribute(key, entity: "Session", attributes: attributeTypes.keys.sorted())
        }
        return .column(key, type: type)
    }

    private static func sqlIDs(_ predicate: FetchPredicate, in dbQueue: DatabaseQueue) throws -> [Int64] {
        let fragment = try predicate.sqlFragment(in: .sqlite, resolvingKeysWith: resolve)
        return try dbQueue.read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM session WHERE \(fragment.sql) ORDER BY id",
                               arguments: StatementArguments(fragment.arguments.map(databaseValue)))
        }
    }

    static func memoryIDs(_ predicate: FetchPredicate) -> [Int64] {
        rows.keys.sorted().filter { id in predicate.evaluate { rows[id]![$0] ?? .null } }
    }

    private static func sql(_ format: String, _ arguments: any PredicateArgumentConvertible...) throws -> SQLFragment {
        try FetchPredicate(format: format, arguments: arguments.map(\.predicateArgument)).sqlFragment(in: .sqlite, resolvingKeysWith: resolve)
    }

    // MARK: SQL agrees with the evaluator

    /// A predicate and its arguments; a struct so that test arguments are `Sendable`.
    struct Case: Sendable, CustomTestStringConvertible {
        var format: String
        var arguments: [PredicateArgument] = []
        var testDescription: String { arguments.isEmpty ? format : "\(format) \(arguments)" }

        init(_ format: String, _ arguments: any PredicateArgumentConvertible...) {
            self.format = format
            self.arguments = arguments.map(\.predicateArgument)
        }
    }

    static let cases: [Case] = [
        // Equality and nil
        Case("kind == 'yoga'"), Case("kind = 'yoga'"), Case("kind != 'yoga'"), Case("kind <> 'yoga'"),
        Case("NOT kind == 'yoga'"), Case("NOT kind != 'yoga'"),
        Case("kind ==[c] 'yoga'"), Case("kind !=[c] 'YOGA'"), Case("kind == nil"), Case("kind != nil"),
        Case("kind = NULL"), Case("NOT kind == nil"), Case("kind == %@", Optional<String>.none),
        Case("'yoga' == kind"), Case("%K == %@", PredicateArgument.key("kind"), "yoga"),
        // Ordering
        Case("duration < 1000"), Case("duration <= 600"), Case("duration =< 600"), Case("duration > 600"),
        Case("duration >= 900"), Case("duration => 900"), Case("duration <> 600"), Case("NOT (duration < 1000)"),
        Case("600 < duration"), Case("duration < nil"), Case("NOT duration < nil"), Case("duration >= %@", 599.5),
        Case("score > 4"), Case("score == 4.5"), Case("score < 0"), Case("NOT score > 4"),
        Case("duration > score"), Case("duration == score"), Case("duration != score"),
        Case("kind == title"), Case("kind != title"), Case("kind < title"),
        Case("kind < 'b'"), Case("kind >=[c] 's'"), Case("title >[cd] 'd'"),
        // Bools and dates
        Case("done == TRUE"), Case("done == NO"), Case("done != YES"), Case("done == 1"), Case("NOT done == TRUE"),
        Case("start > %@", day0), Case("start == %@", day0), Case("start >= %@", day0.addingTimeInterval(0.25)),
        Case("start BETWEEN %@", [day0, day0.addingTimeInterval(86400)]), Case("start < %@", day0.addingTimeInterval(1)),
        Case("start != %@", day0), Case("start == %@", Optional<Date>.none),
        // UUIDs
        Case("uid == %@", uuids[0]), Case("uid == %@", uuids[0].uuidString.lowercased()),
        Case("uid != %@", uuids[0]), Case("uid IN %@", [uuids[0], uuids[1]]),
        Case("uid IN %@", [uuids[2].uuidString.lowercased()]), Case("uid ==[c] %@", uuids[3].uuidString.lowercased()),
        Case("uid BEGINSWITH %@", "00000000"), Case("uid ENDSWITH '4'"), Case("uid > %@", uuids[2]),
        Case("uid == 'not a uuid'"),
        // IN and BETWEEN
        Case("kind IN {'yoga', 'run'}"), Case("kind IN[c] {'yoga'}"), Case("kind IN %@", [String]()),
        Case("NOT kind IN %@", [String]()), Case("kind IN {'swim', nil}"), Case("NOT kind IN {'swim', nil}"),
        Case("NOT kind IN {'yoga', 'run'}"), Case("duration IN {600, 900}"), Case("kind IN %@", ["run", nil] as [String?]),
        Case("kind IN[cd] {'YOGA', 'Swïm'}"), Case("duration BETWEEN {600, 1200}"), Case("duration BETWEEN %@", [600, 1200]),
        Case("NOT duration BETWEEN {600, 1200}"), Case("duration BETWEEN {1200, 600}"), Case("score BETWEEN {-2, 4.5}"),
        Case("kind BETWEEN[c] {'r', 'z'}"), Case("duration BETWEEN {%@, %@}", 0, 600),
        // Text operators: % and _ are not wildcards
        Case("title BEGINSWITH 'Morning'"), Case("title BEGINSWITH[c] 'morning'"), Case("title BEGINSWITH[cd] 'eve'"),
        Case("title BEGINSWITH ''"), Case("title ENDSWITH 'run'"), Case("title ENDSWITH ''"), Case("title ENDSWITH 'Cafe'"),
        Case("title ENDSWITH 'longer than any title at all'"), Case("title CONTAINS 'af'"), Case("title CONTAINS[d] 'cafe'"),
        Case("title CONTAINS[cd] 'CAFE'"), Case("title ==[d] 'Cafe'"), Case("title ==[cd] 'cafe'"),
        Case("title ==[c] 'ÜMLAUT ÜBER'"), Case("title BEGINSWITH[d] 'umlaut'"), Case("NOT title CONTAINS 'a'"),
        Case("tag CONTAINS '%'"), Case("tag CONTAINS '_'"), Case("tag BEGINSWITH '50%'"), Case("tag ENDSWITH '%'"),
        Case("tag == ''"), Case("tag CONTAINS '['"), Case("tag ENDSWITH ']'"), Case("kind CONTAINS nil"),
        Case("title CONTAINS kind"), Case("title BEGINSWITH[c] kind"),
        // LIKE
        Case("title LIKE 'Morning*'"), Case("title LIKE '*run'"), Case("title LIKE[c] 'c?fe*'"), Case("title LIKE[cd] 'cafe*'"),
        Case("title LIKE 'morning*'"), Case("tag LIKE 'a\\\\*b*'"), Case("tag LIKE '*[*'"), Case("tag LIKE '[abc]'"),
        Case("tag LIKE '*%*'"), Case("tag LIKE '?'"), Case("tag LIKE '*'"), Case("tag LIKE '?_?'"), Case("tag LIKE ''"),
        Case("NOT tag LIKE '*%*'"), Case("title LIKE[d] '*Uber'"), Case("tag LIKE %@", "*\\?*"),
        // Blobs
        Case("blob == %@", Data([1, 2])), Case("blob != %@", Data([1, 2])), Case("blob == nil"),
        // Combinations
        Case("kind ==[c] 'yoga' AND duration >= 600 OR title CONTAINS 'run'"),
        Case("NOT (kind == 'yoga' OR duration > 1000)"), Case("!(done == YES) && score > 0"),
        Case("NOT (NOT kind == 'yoga' AND NOT duration < 700)"), Case("(kind == 'run' || kind == nil) && NOT score < 0"),
        Case("TRUEPREDICATE"), Case("FALSEPREDICATE"), Case("NOT TRUEPREDICATE"), Case("kind == 'yoga' OR TRUEPREDICATE"),
    ]

    @Test("SQL selects the rows the evaluator selects", arguments: cases)
    func sqlAgreesWithEvaluator(_ testCase: Case) throws {
        let dbQueue = try Self.makeDatabase()
        let predicate = try FetchPredicate(format: testCase.format, arguments: testCase.arguments)
        #expect(try Self.sqlIDs(predicate, in: dbQueue) == Self.memoryIDs(predicate))
        // The description compiles to SQL that selects the same rows too.
        let reparsed = try FetchPredicate(predicate.description)
        #expect(try Self.sqlIDs(reparsed, in: dbQueue) == Self.memoryIDs(predicate))
    }

    /// Agreement alone would pass if both sides were wrong the same way: pin the expected rows of some cases.
    @Test("SQL and evaluator select the expected rows", arguments: [
        (Case("kind ==[c] 'yoga'"), [1, 2, 6] as [Int64]),
        (Case("kind != 'yoga'"), [2, 3, 4, 5, 6, 7]),
        (Case("NOT (duration < 1000)"), [2, 3, 4]),
        (Case("duration != 600"), [2, 3, 4, 5, 7]),
        (Case("tag CONTAINS '%'"), [1, 3]),
        (Case("tag CONTAINS '_'"), [1, 5]),
        (Case("title LIKE[cd] 'cafe*'"), [2, 6]),
        (Case("title CONTAINS[cd] 'CAFE'"), [2, 6]),
        (Case("tag LIKE '*[*'"), [2, 6]),
        (Case("uid == %@", uuids[0].uuidString.lowercased()), [1]),
        (Case("kind IN {'swim', nil}"), [4, 5]),
        (Case("kind IN %@", [String]()), []),
        (Case("start BETWEEN %@", [day0, day0.addingTimeInterval(86400)]), [1, 2, 6, 7]),
        (Case("done == NO"), [2, 5, 7]),
        (Case("title ENDSWITH ''"), [1, 2, 3, 5, 6, 7]),
        (Case("kind != title"), [1, 2, 3, 5, 6, 7]),
    ])
    func expectedRows(_ testCase: Case, expected: [Int64]) throws {
        let dbQueue = try Self.makeDatabase()
        let predicate = try FetchPredicate(format: testCase.format, arguments: testCase.arguments)
        #expect(try Self.sqlIDs(predicate, in: dbQueue) == expected)
        #expect(Self.memoryIDs(predicate) == expected)
    }

    // MARK: SQL shape

    @Test func equalityAndNilSQL() throws {
        #expect(try Self.sql("kind == %@", "yoga") == SQLFragment(sql: "\"kind\" = ?", arguments: [.string("yoga")]))
        #expect(try Self.sql("kind != 'yoga'") == SQLFragment(sql: "\"kind\" IS NOT ?", arguments: [.string("yoga")]))
        #expect(try Self.sql("kind == nil").sql == "\"kind\" IS NULL")
        #expect(try Self.sql("nil != kind").sql == "\"kind\" IS NOT NULL")
        #expect(try Self.sql("kind == title").sql == "\"kind\" IS \"title\"")
        #expect(try Self.sql("NOT duration < 5") == SQLFragment(sql: "(\"duration\" < ?) IS NOT 1", arguments: [.integer(5)]))
        #expect(try Self.sql("TRUEPREDICATE").sql == "1")
        #expect(try Self.sql("kind IN {}").sql == "0")
        #expect(try Self.sql("kind == 'a' OR duration > 1 AND done == TRUE")
            == SQLFragment(sql: "(\"kind\" = ? OR (\"duration\" > ? AND \"done\" = ?))",
                           arguments: [.string("a"), .integer(1), .bool(true)]))
    }

    @Test func foldingAndTextSQL() throws {
        #expect(try Self.sql("kind ==[c] %@", "Yoga")
            == SQLFragment(sql: "stillpoint_fold(\"kind\", 1) = stillpoint_fold(?, 1)", arguments: [.string("Yoga")]))
        #expect(try Self.sql("kind ==[d] 'a'").sql.contains("stillpoint_fold(\"kind\", 2)"))
        #expect(try Self.sql("kind ==[cd] 'a'").sql.contains("stillpoint_fold(\"kind\", 3)"))
        let contains = try Self.sql("title CONTAINS '50%_'")
        #expect(contains == SQLFragment(sql: "instr(\"title\", ?) > 0", arguments: [.string("50%_")]))
        for format in ["title BEGINSWITH '%'", "title ENDSWITH '_'", "title CONTAINS '%'"] {
            #expect(try !Self.sql(format).sql.uppercased().contains("LIKE"))
        }
        let like = try Self.sql("title LIKE[c] 'A*[b]?\\\\*'")
        #expect(like == SQLFragment(sql: "stillpoint_fold(\"title\", 1) GLOB ?", arguments: [.string("a*[[]b]?[*]")]))
        #expect(try Self.sql("kind IN {'a', nil}")
            == SQLFragment(sql: "(\"kind\" IN (?) OR \"kind\" IS NULL)", arguments: [.string("a")]))
        #expect(try Self.sql("duration BETWEEN {1, 2}")
            == SQLFragment(sql: "(\"duration\" BETWEEN ? AND ?)", arguments: [.integer(1), .integer(2)]))
        #expect(try Self.sql("start > %@", Self.day0).arguments == [.date(Self.day0)])
        #expect(try Self.sql("uid == %@", Self.uuids[0].uuidString.lowercased()).arguments == [.uuid(Self.uuids[0])])
    }

    @Test func havingClauseExpressions() throws {
        let predicate = try FetchPredicate("total > %@ AND kind == 'yoga'", 3600)
        let fragment = try predicate.sqlFragment(in: .sqlite) { key in
            key == "total" ? PredicateKeyResolution(sql: "SUM(\"duration\")", type: .integer) : .column(key, type: .string)
        }
        #expect(fragment == SQLFragment(sql: "(SUM(\"duration\") > ? AND \"kind\" = ?)", arguments: [.integer(3600), .string("yoga")]))
    }

    // MARK: Injection

    @Test func valuesNeverBecomeSQL() throws {
        let dbQueue = try Self.makeDatabase()
        let attack = "x' OR 1=1 --"
        let predicate = try FetchPredicate("title == %@", attack)
        let fragment = try predicate.sqlFragment(in: .sqlite, resolvingKeysWith: Self.resolve)
        #expect(fragment == SQLFragment(sql: "\"title\" = ?", arguments: [.string(attack)]))
        #expect(try Self.sqlIDs(predicate, in: dbQueue).isEmpty)
        // Quotes inside literals of the format stay values too.
        let literal = try FetchPredicate("title == 'x\\' OR 1=1 --' OR kind CONTAINS \"\\\"); DROP TABLE session; --\"")
        let literalFragment = try literal.sqlFragment(in: .sqlite, resolvingKeysWith: Self.resolve)
        #expect(!literalFragment.sql.contains("'"))
        #expect(!literalFragment.sql.contains("DROP"))
        #expect(try Self.sqlIDs(literal, in: dbQueue).isEmpty)
        #expect(try dbQueue.read { db in try db.tableExists("session") })
        // A %K name is checked by the resolver, and quoted as an identifier when it is used.
        #expect(throws: FetchPredicateError.self) {
            try FetchPredicate("%K == 1", PredicateArgument.key("id\" = 1 OR \"x")).sqlFragment(in: .sqlite, resolvingKeysWith: Self.resolve)
        }
        #expect(PredicateKeyResolution.column("a\"b", type: nil).sql == "\"a\"\"b\"")
    }

    // MARK: Compile-time errors

    @Test func unknownAttributesNameTheEntityAndSuggest() {
        #expect {
            try Self.sql("duraton > 5")
        } throws: { error in
            (error as? FetchPredicateError)?.description == "Session has no attribute 'duraton'; did you mean 'duration'?"
        }
    }

    @Test func typeMismatchesAreRejected() {
        let cases = [
            ("duration == '5'", "'duration' is an integer attribute; it can't be compared with \"5\""),
            ("title > 5", "'title' is a string attribute; it can't be compared with 5"),
            ("duration CONTAINS '5'", "CONTAINS compares text, but 'duration' is an integer attribute"),
            ("score ==[c] title", "==[c] compares text, but 'score' is a double attribute"),
            ("kind == duration", "'kind' is a string attribute and 'duration' is an integer attribute; they can't be compared"),
            ("blob == 'x'", "'blob' is a binary attribute; it can't be compared with \"x\""),
        ]
        for (format, message) in cases {
            #expect(performing: { try Self.sql(format) }, throws: { error in
                let error = error as? FetchPredicateError
                return error?.kind == .invalidComparison && error?.message == message
            })
        }
    }

    // MARK: SQL functions

    @Test func foldFunction() throws {
        let dbQueue = try Self.makeDatabase()
        func fetch(_ sql: String) throws -> DatabaseValue? {
            try dbQueue.read { db in try DatabaseValue.fetchOne(db, sql: sql) }
        }
        #expect(try fetch("SELECT stillpoint_fold('Crème BRÛLÉE', 3)") == "creme brulee".databaseValue)
        #expect(try fetch("SELECT stillpoint_fold('Crème', 1)") == "crème".databaseValue)
        #expect(try fetch("SELECT stillpoint_fold('Crème', 2)") == "Creme".databaseValue)
        #expect(try fetch("SELECT stillpoint_fold(NULL, 3)") == .null)
        #expect(try fetch("SELECT stillpoint_fold(42, 3)") == 42.databaseValue)
    }
}
