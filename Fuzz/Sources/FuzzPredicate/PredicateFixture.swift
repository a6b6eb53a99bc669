import Foundation
import StillpointCore
import StillpointSQLite

/// The store, rows and arguments `FuzzPredicate` runs predicates against: the session attributes plus one
/// attribute of every other type, saved in an in-memory store through the public API, as any fetch reads it.
enum PredicateFixture {
    static let attributeTypes: [String: AttributeType] = [
        "kind": .string, "note": .string, "source": .string, "timeZone": .string, "key": .string,
        "duration": .double, "count": .integer, "done": .bool, "start": .date, "uid": .uuid, "blob": .binary,
    ]

    private static let day0 = Date(timeIntervalSince1970: 1_710_000_000)
    private static let uid = UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))

    /// The rows saved: a typical one, nulls, empties and extremes, and text that folds.
    private static let savedRows: [Int64: [String: AttributeValue]] = [
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

    /// The entity of the fixture's rows, every attribute optional.
    static let entity = EntityDescription("session", attributes: attributeTypes.sorted { $0.key < $1.key }.map {
        AttributeDescription(name: $0.key, type: $0.value, isOptional: true)
    })

    /// The fixture's store and the context that reads it, set up by ``setUp()``.
    nonisolated(unsafe) private static var container: PersistentContainer?
    nonisolated(unsafe) private static var context: ObjectContext?
    /// The rows by row id, as the store reads them back, set up by ``setUp()``.
    nonisolated(unsafe) private(set) static var rows: [Int64: [String: AttributeValue]] = [:]

    /// Saves the rows in an in-memory store and reads them back; call it once, before the first input.
    static func setUp() async {
        do {
            let container = try PersistentContainer(schema: try Schema(entities: [entity]), location: .inMemory)
            let context = container.newBackgroundContext(name: "fuzz")
            try await context.perform { context in
                for (_, values) in savedRows.sorted(by: { $0.key < $1.key }) {
                    let object = try context.insert(entityNamed: entity.name)
                    for (key, value) in values { try object.setValue(value, forKey: key) }
                }
                _ = try await context.save()
            }
            rows = try context.performAndWait { context in
                var rows: [Int64: [String: AttributeValue]] = [:]
                for object in try context.fetch(FetchRequest(entity)) {
                    guard let rowID = object.objectID.rowID else { continue }
                    rows[rowID] = object.dictionary
                }
                return rows
            }
            guard rows.count == savedRows.count else {
                fatalError("the predicate fixture store holds \(rows.count) rows, not \(savedRows.count)")
            }
            self.container = container
            self.context = context
        } catch {
            fatalError("cannot set up the predicate fixture store: \(error)")
        }
    }

    static func memoryIDs(_ predicate: FetchPredicate) -> [Int64] {
        rows.keys.sorted().filter { id in predicate.evaluate { rows[id]?[$0] ?? .null } }
    }

    /// The row ids a fetch with `predicate` returns from the store, in order; throws what the fetch throws.
    static func storeIDs(_ predicate: FetchPredicate) throws -> [Int64] {
        guard let context else { fatalError("PredicateFixture.setUp() was not called") }
        return try context.performAndWait { context in
            try context.fetchObjectIDs(FetchRequest(entity, predicate: predicate)).compactMap(\.rowID).sorted()
        }
    }
}
