import Foundation
import GRDB
import StillpointCore

/// The table, rows and arguments `FuzzPredicate` runs predicates against: the session attributes plus one
/// attribute of every other type, stored the way the store stores them.
enum PredicateFixture {
    static let attributeTypes: [String: AttributeType] = [
        "kind": .string, "note": .string, "source": .string, "timeZone": .string, "key": .string,
        "duration": .double, "count": .integer, "done": .bool, "start": .date, "uid": .uuid, "blob": .binary,
    ]

    private static let day0 = Date(timeIntervalSince1970: 1_710_000_000)
    private static let uid = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))

    /// Rows as the store reads them back: a typical one, nulls, empties and extremes, and text that folds.
    static let rows: [Int64: [String: AttributeValue]] = [
        1: ["kind": .string("yoga"), "note": .string("Morgens, langsam"), "source": .string("csv"),
            "timeZone": .string("Europe/Berlin"), "key": .string("csv-1"), "duration": .double(1_500),
            "count": .integer(3), "done": .bool(true), "start": .date(day0), "uid": .uuid(uid),
            "blob": .binary(Data([1, 2]))],
        2: [:],
        3: ["kind": .string(""), "note": .string(""), "source": .string(""), "key": .string(""), "duration": .double(0),
            "count": .integer(0), "done": .bool(false), "start": .date(Date(timeIntervalSince1970: 0)),
            "blob": .binary(Data())],
        4: ["kind": .string("Yoga"), "note": .string("MORGEN ÄÖÜ ß İ café"), "source": .string("apple_health"),
            "key": .string("50%_off a*b?c[d]"), "duration": .double(-0.5), "count": .integer(.min),
            "done": .bool(true), "start": .date(day0.addingTimeInterval(0.25)), "timeZone": .string("UTC")],
        5: ["kind": .string("meditation"), "note": .string("e\u{301}te\u{301} 'quoted' \"double\" \\"),
            "duration": .double(1e300), "count": .integer(.max), "start": .date(day0.addingTimeInterval(-86_400)),
            "uid": .uuid(UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))],
    ]

    /// Filled into `%K`, in turn: every attribute, and one that isn't.
    private static let keys = attributeTypes.keys.sorted() + ["mood"]

    /// Filled into `%@`, in turn from an offset the input chooses: ordinary values, lists, edge cases.
    private static let values: [PredicateArgument] = [
        .value(.string("yoga")),
        .value(.integer(600)),
        .value(.date(day0)),
        .value(.double(12.5)),
        .array([.string("yoga"), .string("meditation")]),
        .value(.null),
        .array([.integer(300), .integer(1_800)]),
        .value(.bool(true)),
        .value(.string("morgen äöü SS i̇")),
        .array([]),
        .value(.integer(.max)),
        .value(.integer(.min)),
        .value(.double(.nan)),
        .value(.double(-.infinity)),
        .value(.double(-0.0)),
        .value(.uuid(uid)),
        .value(.binary(Data([1, 2]))),
        .value(.string("")),
        .array([.null, .double(1e300), .date(Date(timeIntervalSinceReferenceDate: -1e12))]),
        .value(.string("%_\\*?")),
    ]

    /// One argument for each `%@` and `%K` in the format, in order (a placeholder inside a quoted string counts
    /// too; the parser then says there are too many arguments, which is an answer like any other).
    static func arguments(for format: String, offset: Int) -> [PredicateArgument] {
        var arguments: [PredicateArgument] = []
        var previous: Character?
        for character in format {
            if previous == "%", character == "@" {
                arguments.append(values[(offset &+ arguments.count) % values.count])
            } else if previous == "%", character == "K" {
                arguments.append(.key(keys[(offset &+ arguments.count) % keys.count]))
            }
            previous = character
        }
        return arguments
    }

    private struct UnknownKey: Error {}

    static func resolve(_ key: String) throws -> PredicateKeyResolution {
        guard let type = attributeTypes[key] else { throw UnknownKey() }
        return .column(key, type: type)
    }

    static func memoryIDs(_ predicate: FetchPredicate) -> [Int64] {
        rows.keys.sorted().filter { id in predicate.evaluate { rows[id]?[$0] ?? .null } }
    }

    static func sqlIDs(_ fragment: SQLFragment) throws -> [Int64] {
        try database.read { db in
            try Int64.fetchAll(db, sql: "SELECT id FROM session WHERE \(fragment.sql) ORDER BY id",
                               arguments: StatementArguments(fragment.arguments.map(databaseValue)))
        }
    }

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

    static let database: DatabaseQueue = {
        do {
            var configuration = Configuration()
            configuration.prepareDatabase { db in TextFolding.register(in: db) }
            let database = try DatabaseQueue(configuration: configuration)
            try database.write { db in
                let columns = attributeTypes.keys.sorted()
                let declarations = attributeTypes.sorted { $0.key < $1.key }
                    .map { "\"\($0.key)\" \(sqlType($0.value))" }.joined(separator: ", ")
                try db.execute(sql: "CREATE TABLE session (id INTEGER PRIMARY KEY, \(declarations))")
                let quoted = columns.map { "\"\($0)\"" }.joined(separator: ", ")
                let placeholders = Array(repeating: "?", count: columns.count + 1).joined(separator: ", ")
                for (id, values) in rows {
                    try db.execute(sql: "INSERT INTO session (id, \(quoted)) VALUES (\(placeholders))",
                                   arguments: StatementArguments([id.databaseValue]
                                       + columns.map { databaseValue(values[$0] ?? .null) }))
                }
            }
            return database
        } catch {
            fatalError("cannot set up the predicate fixture database: \(error)")
        }
    }()

    private static func sqlType(_ type: AttributeType) -> String {
        switch type {
        case .integer, .bool: return "INTEGER"
        case .double, .date: return "REAL"
        case .string, .uuid: return "TEXT"
        case .binary: return "BLOB"
        }
    }
}
