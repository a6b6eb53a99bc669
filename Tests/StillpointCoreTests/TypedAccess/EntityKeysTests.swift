import Foundation
@testable import StillpointCore
import Testing

/// Typed predicates built through ``EntityKeys``: each is the tree its format parses to, and selects the same
/// objects in the store's SQL and in the in-memory evaluator, on every store.
@Suite("Typed predicates through relationships")
struct EntityKeysTests {
    /// Over RelationshipPredicateTests' fixture: batches "morning" (a 10, b 20, c 30), "evening" (d 5) and "empty";
    /// entry e (40) has no batch; Ana owns a and d.
    static let batchCases: [(TypedPredicate<Batch>, String, [String])] = [
        (TypedPredicate<Batch> { $0.entries.count > 2 }, "entries.@count > 2", ["morning"]),
        (TypedPredicate<Batch> { $0.entries.count == 0 }, "entries.@count == 0", ["empty"]),
        (TypedPredicate<Batch> { $0.entries.any { $0.minutes > 25 } },
         "SUBQUERY(entries, $entries, $entries.minutes > 25).@count > 0", ["morning"]),
        (TypedPredicate<Batch> { $0.entries.all { $0.minutes >= 10 } },
         "SUBQUERY(entries, $entries, NOT $entries.minutes >= 10).@count == 0", ["empty", "morning"]),
        (TypedPredicate<Batch> { $0.entries.none { $0.minutes < 10 } },
         "SUBQUERY(entries, $entries, $entries.minutes < 10).@count == 0", ["empty", "morning"]),
        (TypedPredicate<Batch> { $0.entries.count(where: { $0.minutes >= 10 && $0.title != "c" }) == 2 },
         "SUBQUERY(entries, $entries, $entries.minutes >= 10 AND $entries.title != 'c').@count == 2", ["morning"]),
        (TypedPredicate<Batch> { $0.entries.any { $0.owner.name == "Ana" } },
         "SUBQUERY(entries, $entries, $entries.owner.name == 'Ana').@count > 0", ["evening", "morning"]),
        (TypedPredicate<Batch> { $0.name.beginsWith("m") || $0.entries.count == 1 },
         "name BEGINSWITH 'm' OR entries.@count == 1", ["evening", "morning"]),
        (TypedPredicate<Batch> { !$0.entries.any { $0.title.in(["a", "d"]) } && $0.name != "empty" },
         "NOT SUBQUERY(entries, $entries, $entries.title IN {'a', 'd'}).@count > 0 AND name != 'empty'", []),
    ]

    static let entryCases: [(TypedPredicate<Entry>, String, [String])] = [
        (TypedPredicate<Entry> { $0.batch.name == "morning" }, "batch.name == 'morning'", ["a", "b", "c"]),
        (TypedPredicate<Entry> { $0.batch.isNil }, "batch == nil", ["e"]),
        (TypedPredicate<Entry> { $0.batch.entries.count >= 3 }, "batch.entries.@count >= 3", ["a", "b", "c"]),
        (TypedPredicate<Entry> { $0.minutes >= 10 && $0.owner.name == "Ana" }, "minutes >= 10 AND owner.name == 'Ana'", ["a"]),
        (TypedPredicate<Entry> { $0.batch.name.contains("EVE", options: .caseInsensitive) || $0.minutes.between(15, 25) },
         "batch.name CONTAINS[c] 'EVE' OR minutes BETWEEN {15, 25}", ["b", "d"]),
    ]

    @Test(arguments: batchCases)
    func aBatchPredicateIsTheTreeOfItsFormat(testCase: (TypedPredicate<Batch>, String, [String])) throws {
        #expect(testCase.0.predicate == (try FetchPredicate(testCase.1)), "\(testCase.0.predicate)")
    }

    @Test(arguments: entryCases)
    func anEntryPredicateIsTheTreeOfItsFormat(testCase: (TypedPredicate<Entry>, String, [String])) throws {
        #expect(testCase.0.predicate == (try FetchPredicate(testCase.1)), "\(testCase.0.predicate)")
    }

    @Test(arguments: TestStore.all, batchCases)
    func batchesMatchInTheStoreAsInMemory(store: TestStore, testCase: (TypedPredicate<Batch>, String, [String])) async throws {
        try await check(store, Batch.entity, key: "name", testCase.0.predicate, testCase.2)
    }

    @Test(arguments: TestStore.all, entryCases)
    func entriesMatchInTheStoreAsInMemory(store: TestStore, testCase: (TypedPredicate<Entry>, String, [String])) async throws {
        try await check(store, Entry.entity, key: "title", testCase.0.predicate, testCase.2)
    }

    @Test(arguments: TestStore.all)
    func aTypedRequestFetchesWithItsOrderAndLimit(store: TestStore) async throws {
        let container = try await RelationshipPredicateTests.fixture(store)
        try await container.newBackgroundContext().perform { context throws in
            let request = FetchRequest(Entry.self, matching: { $0.batch.entries.count > 0 && $0.minutes > 5 },
                                       sortedBy: [.descending(Entry.minutes)], limit: 2)
            #expect(try context.fetch(request).map { $0[Entry.title] } == ["c", "b"])
        }
    }

    private func check(_ store: TestStore, _ entity: EntityDescription, key: String, _ predicate: FetchPredicate,
                       _ expected: [String]) async throws {
        let container = try await RelationshipPredicateTests.fixture(store)
        try await container.newBackgroundContext().perform { context throws in
            let names = { (objects: [ManagedObject]) in try objects.map { try $0.value(forKey: key) }.sorted { $0.description < $1.description } }
            let fromStore = try context.fetch(FetchRequest(entity, predicate: predicate))
            #expect(try names(fromStore) == expected.map { AttributeValue.string($0) }, "SQL: \(predicate)")
            let inMemory = try context.fetch(FetchRequest(entity)).filter { try context.graph.matches($0, predicate) }
            #expect(try names(inMemory) == names(fromStore), "evaluator: \(predicate)")
        }
    }
}
