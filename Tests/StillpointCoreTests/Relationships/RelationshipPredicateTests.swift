import Foundation
@testable import StillpointCore
import Testing
import StillpointSQL

/// Key paths, ANY/ALL/NONE and collection operators, in the store's SQL and in the in-memory evaluator alike.
@Suite("Predicates through relationships")
struct RelationshipPredicateTests {
    /// Batches "morning" (entries a 10, b 20, c 30), "evening" (d 5) and "empty"; entry e (40) has no batch.
    /// Ana owns a and d.
    static func fixture(_ store: TestStore) async throws -> PersistentContainer {
        let container = try await makeContainer(store, entities: relationshipEntities)
        try await container.performBackgroundTask { context in
            let ana = context.insert(Person.self)
            ana[Person.name] = "Ana"
            var batches: [String: ManagedObject] = [:]
            for name in ["morning", "evening", "empty"] {
                let batch = context.insert(Batch.self)
                batch[Batch.name] = name
                batches[name] = batch
            }
            for (title, minutes, batch) in [("a", 10, "morning"), ("b", 20, "morning"), ("c", 30, "morning"), ("d", 5, "evening"), ("e", 40, "")] {
                let entry = context.insert(Entry.self)
                entry[Entry.title] = title
                entry[Entry.minutes] = minutes
                try entry.set(Entry.batch, to: batches[batch])
                if title == "a" || title == "d" { try entry.set(Entry.owner, to: ana) }
            }
            try await context.save()
        }
        return container
    }

    static let entryCases: [(String, [String])] = [
        ("batch.name == 'morning'", ["a", "b", "c"]),
        ("batch.name == nil", ["e"]),
        ("batch.name !=[c] 'MORNING'", ["d", "e"]),
        ("batch.name BEGINSWITH[c] 'EVE'", ["d"]),
        ("owner.name == 'Ana'", ["a", "d"]),
        ("ANY batch.name == 'evening'", ["d"]),
        ("batch.entries.@count >= 3", ["a", "b", "c"]),
        ("batch.entries.@sum.minutes < 10 OR batch == nil", ["d", "e"]),
        // Through a to-one relationship, a SUBQUERY counts 0 or 1.
        ("SUBQUERY(owner, $p, $p.name == 'Ana').@count == 1", ["a", "d"]),
        ("SUBQUERY(batch, $b, $b.entries.@count > 1).@count == 0", ["d", "e"]),
        // Issue 26: SELF, %K key paths and arithmetic through relationships.
        ("SELF.batch.name == 'evening'", ["d"]),
        ("%K == 'Ana'", ["a", "d"]),
        ("batch.entries.@sum.minutes / 10 == 6", ["a", "b", "c"]),
        ("minutes * 2 > batch.entries.@max.minutes", ["b", "c", "d"]),
        ("length:(batch.name) == 7 AND uppercase(owner.name) == 'ANA'", ["a", "d"]),
    ]

    static let batchCases: [(String, [String])] = [
        ("ANY entries.minutes > 25", ["morning"]),
        ("ALL entries.minutes >= 10", ["empty", "morning"]),
        ("NONE entries.minutes < 10", ["empty", "morning"]),
        ("NOT (ANY entries.minutes > 25)", ["empty", "evening"]),
        ("entries.@count == 0", ["empty"]),
        ("entries.@sum.minutes > 50", ["morning"]),
        ("entries.@sum.minutes == 0", ["empty"]),
        ("entries.@avg.minutes < 10", ["evening"]),
        ("entries.@max.minutes == 30", ["morning"]),
        ("entries.@min.minutes == nil", ["empty"]),
        ("ANY entries.owner.name == 'Ana'", ["evening", "morning"]),
        ("ANY entries.title IN {'d', 'x'}", ["evening"]),
        ("SOME entries.title ==[c] 'A' AND name BEGINSWITH 'm'", ["morning"]),
        ("SUBQUERY(entries, $e, $e.minutes >= 10 AND $e.title != 'c').@count == 2", ["morning"]),
        ("SUBQUERY(entries, $e, $e.owner.name == 'Ana').@count > 0", ["evening", "morning"]),
        ("SUBQUERY(entries, $e, $e.minutes > 100).@count == 0", ["empty", "evening", "morning"]),
        ("SUBQUERY(entries, $e, TRUEPREDICATE).@count == entries.@count", ["empty", "evening", "morning"]),
        ("SUBQUERY(entries, $e, $e.title IN {'a', 'd'} OR $e.minutes BETWEEN {25, 35}).@count >= 2", ["morning"]),
        ("SUBQUERY(entries, $e, NOT ($e.minutes < 15)).@count IN {1, 2}", ["morning"]),
        ("1 < SUBQUERY(entries, $entry, $entry.minutes < %@).@count", ["morning"]),
        ("NOT SUBQUERY(entries, $e, $e.title ==[c] 'A').@count == 1 AND name != 'empty'", ["evening"]),
        ("SUBQUERY(entries, $e, ANY $e.owner.name == 'Ana').@count == 1", ["evening", "morning"]),
        // Through a to-one relationship, a SUBQUERY counts 0 or 1.
        ("SUBQUERY(entries, $e, SUBQUERY($e.batch, $b, SUBQUERY($b.entries, $x, $x.minutes < 8).@count > 0).@count > 0).@count > 0", ["evening"]),
        ("SUBQUERY(entries, $e, $e.batch.entries.@count == 3).@count == 3", ["morning"]),
        ("SUBQUERY(entries, $e, $e.minutes > %@).@count == SUBQUERY(entries, $e, $e.minutes < %@).@count", ["empty", "morning"]),
        ("SUBQUERY(entries, $e, $e.minutes / 10 >= 2).@count == 2", ["morning"]),
        ("modulus:by:(entries.@sum.minutes, 7) == 5", ["evening"]),
        ("%K > 1", ["morning"]),
    ]

    /// Arguments for `%@` in the cases above, in order.
    private static func arguments(for format: String) -> [any PredicateArgumentConvertible] {
        switch format {
        case let format where format.hasPrefix("1 < SUBQUERY"): return [30]
        case let format where format.contains("== SUBQUERY"): return [15, 25]
        case "%K == 'Ana'": return [PredicateArgument.key("owner.name")]
        case "%K > 1": return [PredicateArgument.key("entries.@count")]
        default: return []
        }
    }

    @Test(arguments: TestStore.all, entryCases)
    func entriesMatchInTheStoreAsInMemory(store: TestStore, testCase: (String, [String])) async throws {
        try await check(store, Entry.entity, key: "title", testCase)
    }

    @Test(arguments: TestStore.all, batchCases)
    func batchesMatchInTheStoreAsInMemory(store: TestStore, testCase: (String, [String])) async throws {
        try await check(store, Batch.entity, key: "name", testCase)
    }

    private func check(_ store: TestStore, _ entity: EntityDescription, key: String, _ testCase: (String, [String])) async throws {
        let (format, expected) = testCase
        let container = try await Self.fixture(store)
        let arguments = Self.arguments(for: format).map(\.predicateArgument)
        let predicate = try FetchPredicate(format: format, arguments: arguments)
        try await container.newBackgroundContext().perform { context throws in
            let names = { (objects: [ManagedObject]) in try objects.map { try $0.value(forKey: key).description }.sorted() }
            let fromStore = try context.fetch(FetchRequest(entity, predicate: predicate))
            #expect(try names(fromStore) == expected.map { AttributeValue.string($0).description }, "SQL: \(format)")
            let all = try context.fetch(FetchRequest(entity))
            let inMemory = try all.filter { try context.graph.matches($0, predicate) }
            #expect(try names(inMemory) == names(fromStore), "evaluator: \(format)")
            #expect(try FetchPredicate(predicate.description).description == predicate.description)
        }
    }

    @Test func quantifiedPredicatesDescribeThemselvesAsWritten() throws {
        #expect(try FetchPredicate("ANY entries.minutes > 25").description == "ANY entries.minutes > 25")
        #expect(try FetchPredicate("batch.entries.@sum.minutes >= 10").description == "batch.entries.@sum.minutes >= 10")
        let nested = "SUBQUERY(entries, $e, $e.minutes > 25 AND (ANY $e.owner.name == \"Ana\" OR SUBQUERY($e.batch, $b, $b.name ==[c] \"x\").@count == 0)).@count >= 1"
        #expect(try FetchPredicate(nested).description == nested)
        #expect(try FetchPredicate("subquery(entries,$e,$e.minutes>%@).@count=2", 25).description
                == "SUBQUERY(entries, $e, $e.minutes > 25).@count == 2")
        // A SUBQUERY's keys are the destination's, like a quantified condition's.
        #expect(try FetchPredicate("SUBQUERY(entries, $e, $e.minutes > 25).@count == 2 AND name == 'x'").referencedKeys == ["name"])
    }

    @Test(arguments: TestStore.all) func aSubqueryThroughTheSideOfAOneToOneReadThroughItsInverseCountsOneAtMost(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: relationshipEntities)
        try await container.performBackgroundTask { context in
            for (name, number) in [("Ana", 2), ("Ben", 1), ("Cy", nil)] {
                let member = context.insert(Member.self)
                member[Member.name] = name
                guard let number else { continue }
                let locker = context.insert(Locker.self)
                locker[Locker.number] = number
                try member.set(Member.locker, to: locker)
            }
            try await context.save()
        }
        try await container.newBackgroundContext().perform { context throws in
            for (format, expected) in [
                ("SUBQUERY(locker, $l, $l.number > 1).@count == 1", ["Ana"]),
                ("SUBQUERY(locker, $l, TRUEPREDICATE).@count == 0", ["Cy"]),
                ("SUBQUERY(locker, $l, $l.member.name == 'Ben').@count == 1", ["Ben"]),
            ] {
                let predicate = try FetchPredicate(format)
                let fromStore = try context.fetch(FetchRequest(Member.self, predicate: predicate, sortedBy: [.ascending(Member.name)]))
                #expect(fromStore.map { $0[Member.name] } == expected, "SQL: \(format)")
                let inMemory = try context.fetch(FetchRequest(Member.self, sortedBy: [.ascending(Member.name)]))
                    .filter { try context.graph.matches($0, predicate) }
                #expect(inMemory.map { $0[Member.name] } == expected, "evaluator: \(format)")
            }
        }
    }

    @Test func aSubqueryCompilesToACountOfTheMatchingRelatedRows() throws {
        let predicate = try FetchPredicate("name != %@ AND SUBQUERY(entries, $e, $e.minutes > %@).@count == %@", "x", 5, 2)
        let fragment = try predicate.sqlFragment(in: .postgreSQL, entity: Batch.entity) { .column($0, type: .string) }
        #expect(fragment.sql == #"("name" IS DISTINCT FROM ($1::text COLLATE "C") AND (SELECT COUNT(*) FROM "Entry" AS "_r1" WHERE "_r1"."batch" = "Batch"."_id" AND "_r1"."minutes" > ($2::bigint)) = ($3::bigint))"#)
        #expect(fragment.arguments == [.string("x"), .integer(5), .integer(2)])
    }

    @Test(arguments: TestStore.all) func subqueriesCompileWithTheirParametersInOrder(store: TestStore) async throws {
        let container = try await Self.fixture(store)
        try await container.newBackgroundContext().perform { context throws in
            // The count's parameters come between the ones before and after it, in the SQL text as in the arguments.
            let predicate = try FetchPredicate("name != %@ AND SUBQUERY(entries, $e, $e.title IN %@ AND $e.minutes > %@).@count == %@ AND name != %@",
                                               "x", ["a", "b", "d"], 5, 2, "y")
            let names = try context.fetch(FetchRequest(Batch.entity, predicate: predicate)).map { try $0.value(forKey: "name") }
            #expect(names == [.string("morning")])
        }
    }

    @Test(arguments: TestStore.all) func pathsThatCantBeFollowedSayWhatToWrite(store: TestStore) async throws {
        let container = try await Self.fixture(store)
        try await container.newBackgroundContext().perform { context throws in
            for (format, entity, message) in [
                ("entries.minutes > 5", Batch.entity, "ANY, ALL or NONE"),
                ("batch.nme == 'x'", Entry.entity, "nme"),
                ("bach.name == 'x'", Entry.entity, "batch"),
                ("entries.@sum > 1", Batch.entity, "needs one attribute"),
                ("SUBQUERY(minutes, $m, $m.x == 1).@count > 0", Entry.entity, "'minutes' is an attribute of 'Entry'; relationships: batch, owner"),
                ("SUBQUERY(entres, $e, $e.minutes == 1).@count > 0", Batch.entity, "entries"),
                ("SUBQUERY(entries, $e, $e.mintes == 1).@count > 0", Batch.entity, "minutes"),
                ("SUBQUERY(entries, $e, $e.minutes == 1).@count == name", Batch.entity, "can't be compared"),
                ("SUBQUERY(entries, $e, $e.title > 1).@count > 0", Batch.entity, "can't be compared with 1"),
            ] {
                do {
                    _ = try context.fetch(FetchRequest(entity, predicate: try FetchPredicate(format)))
                    Issue.record("\(format) was accepted")
                } catch {
                    #expect("\(error)".contains(message), "\(format): \(error)")
                }
            }
        }
        #expect(throws: FetchPredicateError.self) { try FetchPredicate("ANY minutes > 5") }
    }
}
