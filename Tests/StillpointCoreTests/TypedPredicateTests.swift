import Foundation
import StillpointCore
import Testing

/// Predicates built from typed attributes are the trees the format parser builds for the same text, so the SQL
/// compiler and the evaluator (and through them every store) treat them alike.
@Suite("Typed predicates")
struct TypedPredicateTests {
    /// One typed predicate and the format that must parse to the same tree.
    struct Case: Sendable, CustomTestStringConvertible {
        var typed: FetchPredicate
        var format: String
        var arguments: [PredicateArgument]

        init(_ typed: FetchPredicate, _ format: String, _ arguments: any PredicateArgumentConvertible...) {
            self.typed = typed
            self.format = format
            self.arguments = arguments.map(\.predicateArgument)
        }

        var parsed: FetchPredicate {
            get throws { try FetchPredicate(format: format, arguments: arguments) }
        }

        var testDescription: String { format }
    }

    static let day0 = Date(timeIntervalSince1970: 1_700_000_000)
    static let day = 86_400.0
    static let uuids = (0..<6).map { UUID(uuidString: "00000000-0000-0000-0000-00000000000\($0)") ?? UUID() }

    static let kitchenCases: [Case] = [
        // Equality, for every value type.
        Case(Kitchen.integer == 3, "integer == 3"),
        // Arithmetic (issue 26).
        Case(Kitchen.double / 60 > 20, "double / 60.0 > 20"),
        Case(Kitchen.integer * 2 - 1 >= 5, "integer * 2 - 1 >= 5"),
        Case((Kitchen.double - 600).magnitude < 60, "abs(double - 600.0) < 60"),
        Case(-Kitchen.integer > -3, "-integer > -3"),
        Case(Kitchen.integer + Kitchen.integer == 4, "integer + integer == 4"),
        Case(Kitchen.integer.arithmetic.raised(to: 2) > 4, "integer ** 2 > 4"),
        Case((Kitchen.double / 60).squareRoot() > 4, "sqrt(double / 60.0) > 4"),
        Case((Kitchen.double / 700).roundedDown() == 1, "floor(double / 700.0) == 1"),
        Case((Kitchen.double / 700).roundedUp() == 1, "ceiling(double / 700.0) == 1"),
        Case((Kitchen.double / -700).truncated() == -1, "trunc(double / -700.0) == -1"),
        Case(Kitchen.integer % 2 == 1, "modulus:by:(integer, 2) == 1"),
        Case(Kitchen.string.length > 3, "length:(string) > 3"),
        Case(Kitchen.string.matches("[a-z]+"), "string MATCHES \"[a-z]+\""),
        Case(Kitchen.note.matches("CAFE.*|knee.*", options: .caseInsensitive), "note MATCHES[c] \"CAFE.*|knee.*\""),
        Case(Kitchen.integer != 3, "integer != 3"),
        Case(Kitchen.double == 600, "double == 600.0"),
        Case(Kitchen.double >= 600, "double >= %@", 600.0),
        Case(Kitchen.string == "yoga", "string == \"yoga\""),
        Case(Kitchen.string != "yoga", "string != %@", "yoga"),
        Case(Kitchen.bool == true, "bool == TRUE"),
        Case(Kitchen.bool != true, "bool != YES"),
        Case(Kitchen.date == day0, "date == %@", day0),
        Case(Kitchen.uuid == uuids[2], "uuid == %@", uuids[2]),
        Case(Kitchen.binary == Data([1]), "binary == %@", Data([1])),
        // Optionals and nil.
        Case(Kitchen.note == nil, "note == nil"),
        Case(Kitchen.note.isNil, "note == NULL"),
        Case(Kitchen.note != nil, "note != nil"),
        Case(!Kitchen.note.isNil, "NOT note == nil"),
        Case(Kitchen.note == "cafe after", "note == \"cafe after\""),
        Case(Kitchen.note != "cafe after", "note != \"cafe after\""),
        // Ordering.
        Case(Kitchen.integer < 3, "integer < 3"),
        Case(Kitchen.integer <= 3, "integer <= 3"),
        Case(Kitchen.integer > 3, "integer > 3"),
        Case(Kitchen.integer >= 3, "integer >= 3"),
        Case(Kitchen.double < 600, "double < 600.0"),
        Case(Kitchen.double > 0.5, "double > 0.5"),
        Case(Kitchen.string < "run", "string < \"run\""),
        Case(Kitchen.date < day0.addingTimeInterval(2 * day), "date < %@", day0.addingTimeInterval(2 * day)),
        Case(Kitchen.date >= day0, "date >= %@", day0),
        // IN and BETWEEN.
        Case(Kitchen.integer.in([1, 3, 5]), "integer IN {1, 3, 5}"),
        Case(Kitchen.string.in(["yoga", "run"]), "string IN %@", ["yoga", "run"]),
        Case(Kitchen.string.in([]), "string IN {}"),
        Case(Kitchen.note.in(["cafe after", nil]), "note IN {\"cafe after\", nil}"),
        Case(Kitchen.uuid.in(uuids.prefix(2)), "uuid IN %@", Array(uuids.prefix(2))),
        Case(Kitchen.integer.between(2, 4), "integer BETWEEN {2, 4}"),
        Case(Kitchen.double.between(300, 1_200), "double BETWEEN {300.0, 1200.0}"),
        Case(Kitchen.date.between(day0, day0.addingTimeInterval(2 * day)), "date BETWEEN %@", [day0, day0.addingTimeInterval(2 * day)]),
        // Text, with and without modifiers.
        Case(Kitchen.string.beginsWith("yo"), "string BEGINSWITH \"yo\""),
        Case(Kitchen.string.beginsWith("yo", options: .caseInsensitive), "string BEGINSWITH[c] \"yo\""),
        Case(Kitchen.string.contains("af"), "string CONTAINS \"af\""),
        Case(Kitchen.string.contains("cafe", options: .diacriticInsensitive), "string CONTAINS[d] \"cafe\""),
        Case(Kitchen.string.endsWith("GA", options: [.caseInsensitive, .diacriticInsensitive]), "string ENDSWITH[cd] \"GA\""),
        Case(Kitchen.string.like("run*"), "string LIKE \"run*\""),
        Case(Kitchen.string.like("run\\*fast"), "string LIKE \"run\\\\*fast\""),
        Case(Kitchen.string.like("?OGA", options: .caseInsensitive), "string LIKE[c] \"?OGA\""),
        Case(Kitchen.note.beginsWith("knee", options: .caseInsensitive), "note BEGINSWITH[c] \"knee\""),
        Case(Kitchen.note.contains("%_"), "note CONTAINS \"%_\""),
        Case(Kitchen.note.endsWith("after"), "note ENDSWITH \"after\""),
        Case(Kitchen.note.like("*e*", options: [.caseInsensitive, .diacriticInsensitive]), "note LIKE[cd] \"*e*\""),
        // AND, OR and NOT, with Swift's precedence matching the format's.
        Case(Kitchen.integer >= 2 && Kitchen.string == "run", "integer >= 2 AND string == \"run\""),
        Case(Kitchen.integer >= 2 && Kitchen.bool == true && Kitchen.note != nil, "integer >= 2 AND bool == TRUE AND note != nil"),
        Case(Kitchen.integer == 1 || Kitchen.integer == 6 || Kitchen.string == "run", "integer == 1 OR integer == 6 OR string == \"run\""),
        Case(Kitchen.integer == 1 || Kitchen.bool == true && Kitchen.double > 600, "integer == 1 OR bool == TRUE AND double > 600.0"),
        Case((Kitchen.integer == 1 || Kitchen.bool == true) && Kitchen.double > 600, "(integer == 1 OR bool == TRUE) AND double > 600.0"),
        Case(!(Kitchen.integer == 1 || Kitchen.note.isNil), "NOT (integer == 1 OR note == nil)"),
        Case(!(!(Kitchen.integer == 1)), "NOT NOT integer == 1"),
        Case(Kitchen.note.isNil || !Kitchen.note.contains("e"), "note == nil OR NOT note CONTAINS \"e\""),
        Case(.and([]) && Kitchen.integer == 2, "TRUEPREDICATE AND integer == 2"),
    ]

    static let itemCases: [Case] = [
        Case(Item.score > 3.5, "score > 3.5"),
        Case(Item.score <= 3.5, "score <= 3.5"),
        Case(Item.score < 2, "score < 2.0"),
        Case(Item.score >= 1.5, "score >= %@", 1.5),
        Case(Item.score.between(1, 3.5), "score BETWEEN {1.0, 3.5}"),
        Case(Item.score == nil || Item.score < 2, "score == nil OR score < 2.0"),
        Case(Item.uid.in([1, 4]), "uid IN {1, 4}"),
        Case(Item.title.beginsWith("ITEM 1", options: .caseInsensitive), "title BEGINSWITH[c] \"ITEM 1\""),
    ]

    // MARK: The same tree

    @Test(arguments: kitchenCases + itemCases)
    func buildsTheTreeTheFormatParsesTo(_ example: Case) throws {
        let parsed = try example.parsed
        #expect(example.typed == parsed)
        #expect(example.typed.description == parsed.description)
        // And the description reads back to the same tree, as the parser's own predicates do.
        #expect(try FetchPredicate(format: example.typed.description, arguments: []) == example.typed)
    }

    /// A double attribute takes whole numbers as doubles: `600` is written `600.0`, as `%@` with a Double writes it.
    @Test func wholeNumbersOfDoubleAttributesAreDoubles() throws {
        #expect((Kitchen.double >= 600).description == "double >= 600.0")
        #expect((Kitchen.double >= 600) != (try FetchPredicate("double >= 600")))
    }

    /// Attribute names spelled like keywords are escaped in descriptions, as parsed `#name` keys are.
    @Test func keywordNamedAttributes() throws {
        let contains = Attribute<String>("contains")
        let typed = contains.contains("x") && Attribute<Int>("in").in([1])
        #expect(typed == (try FetchPredicate("#contains CONTAINS \"x\" AND #in IN {1}")))
        #expect(typed.description == "#contains CONTAINS \"x\" AND #in IN {1}")
        #expect(typed.referencedKeys == ["contains", "in"])
    }

    @Test func fetchRequestsTakeTypedPredicates() {
        let scoped = FetchRequest(Item.self, where: { $0.score >= 2 && $0.title.contains("1") },
                                  sortedBy: [.ascending(Item.uid)], limit: 3)
        #expect(scoped.entity.name == "Item")
        #expect(scoped.predicate == (Item.score >= 2 && Item.title.contains("1")))
        #expect(scoped.sortKeys == [.ascending("uid")])
        #expect(scoped.limit == 3)
        let plain = FetchRequest(Item.self, predicate: Item.uid > 2)
        #expect(plain.predicate?.description == "uid > 2")
    }

    // MARK: The same rows

    @Test(arguments: TestStore.all)
    func selectTheRowsTheirFormatsSelect(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await Self.insertRows(in: container)
        // For each format: how many rows it selects, and how many the entity has.
        let counts = try await container.newBackgroundContext().perform { context in
            var counts: [String: (selected: Int, total: Int)] = [:]
            for (entity, cases) in [(Kitchen.entity, Self.kitchenCases), (Item.entity, Self.itemCases)] {
                let everything = try context.fetch(FetchRequest(entity))
                for example in cases {
                    // Straight from the store's SQL, not from objects the context holds.
                    var typedRequest = FetchRequest(entity, predicate: example.typed)
                    typedRequest.includesPendingChanges = false
                    var parsedRequest = FetchRequest(entity, predicate: try example.parsed)
                    parsedRequest.includesPendingChanges = false
                    let typed = Set(try context.fetchObjectIDs(typedRequest))
                    let parsed = Set(try context.fetchObjectIDs(parsedRequest))
                    let evaluated = Set(everything.filter { object in
                        example.typed.evaluate { key in object.dictionary[key] ?? .null }
                    }.map(\.objectID))
                    #expect(typed == parsed, "\(example.format)")
                    #expect(typed == evaluated, "\(example.format): the store and the evaluator disagree")
                    counts[example.format] = (typed.count, everything.count)
                }
            }
            return counts
        }
        // The rows some predicates select, spelled out, so the agreement above isn't about empty or full sets.
        for (format, expected) in Self.expectedKitchen + Self.expectedItems {
            #expect(counts[format]?.selected == expected, "\(format)")
        }
        let selective = counts.values.filter { $0.selected > 0 && $0.selected < $0.total }
        #expect(selective.count >= (Self.kitchenCases.count + Self.itemCases.count) * 3 / 4)
    }

    /// How many rows of ``insertRows(in:)`` some formats select.
    static let expectedKitchen: [(String, Int)] = [
        ("integer >= 3", 4), ("double >= %@", 4), ("double / 60.0 > 20", 2), ("integer * 2 - 1 >= 5", 4),
        ("abs(double - 600.0) < 60", 1), ("integer ** 2 > 4", 4), ("sqrt(double / 60.0) > 4", 3), ("floor(double / 700.0) == 1", 1),
        ("ceiling(double / 700.0) == 1", 3), ("trunc(double / -700.0) == -1", 1), ("modulus:by:(integer, 2) == 1", 3),
        ("length:(string) > 3", 4), ("string MATCHES \"[a-z]+\"", 2), ("note MATCHES[c] \"CAFE.*|knee.*\"", 2), ("-integer > -3", 2), ("integer + integer == 4", 1), ("note == nil", 2), ("note != nil", 4), ("string IN {}", 0),
        ("string BEGINSWITH[c] \"yo\"", 2), ("string CONTAINS[d] \"cafe\"", 1), ("string LIKE \"run\\\\*fast\"", 1),
        ("string LIKE \"run*\"", 2), ("note BEGINSWITH[c] \"knee\"", 1), ("note CONTAINS \"%_\"", 1),
        ("date BETWEEN %@", 3), ("note IN {\"cafe after\", nil}", 3),
        ("integer == 1 OR bool == TRUE AND double > 600.0", 2), ("NOT (integer == 1 OR note == nil)", 4),
    ]
    static let expectedItems: [(String, Int)] = [
        ("score > 3.5", 1), ("score BETWEEN {1.0, 3.5}", 2), ("score == nil OR score < 2.0", 2),
        ("title BEGINSWITH[c] \"ITEM 1\"", 1),
    ]

    /// Six kitchens and four items with values that tell the operators apart: case and accents, wildcards and
    /// `%`/`_` in text, missing notes and scores.
    static func insertRows(in container: PersistentContainer) async throws {
        try await container.performBackgroundTask { context in
            let rows: [(Int64, Double, String, Bool, Double, Data, String?)] = [
                (1, 300, "yoga", true, 0, Data([1]), nil),
                (2, 600, "Yoga", false, 1, Data([2]), "Knee felt fine"),
                (3, 1_200, "café", true, 2, Data([1]), "cafe after"),
                (4, 1_800, "run", false, 3, Data([3]), "Évening"),
                (5, 0.5, "run*fast", true, 4, Data(), "50%_off"),
                (6, 2_400, "", false, -1, Data([9, 9]), nil),
            ]
            for (index, row) in rows.enumerated() {
                let kitchen = context.insert(Kitchen.self)
                kitchen[Kitchen.integer] = row.0
                kitchen[Kitchen.double] = row.1
                kitchen[Kitchen.string] = row.2
                kitchen[Kitchen.bool] = row.3
                kitchen[Kitchen.date] = day0.addingTimeInterval(row.4 * day)
                kitchen[Kitchen.uuid] = uuids[index]
                kitchen[Kitchen.binary] = row.5
                kitchen[Kitchen.note] = row.6
            }
            for (uid, score) in [(Int32(1), nil), (2, 1.5), (3, 3.5), (4, 4.0)] as [(Int32, Double?)] {
                let item = context.insert(Item.self)
                item[Item.uid] = uid
                item[Item.title] = "item \(uid)"
                item[Item.score] = score
            }
            try await context.save()
        }
    }
}
