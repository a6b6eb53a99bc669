import Foundation
import Testing
@testable import StillpointCore

@Suite("FetchRequest")
struct FetchRequestTests {
    @Test(arguments: TestStore.all) func predicateSortLimitAndOffset(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...10, in: container)
        try await container.performBackgroundTask { context in
            var request = FetchRequest(Item.self, predicate: try FetchPredicate("uid > %@", 3), sortedBy: [.descending(Item.uid)])
            request.limit = 3
            request.offset = 2
            #expect(try context.fetch(request).map { $0[Item.uid] } == [8, 7, 6])
            #expect(try context.count(for: request) == 3)
            request.limit = nil
            #expect(try context.count(for: request) == 5)
            #expect(try context.fetchObjectIDs(request).count == 5)
        }
    }

    @Test(arguments: TestStore.all) func objectFetchesIncludeUnsavedChanges(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...5, in: container)
        try await container.performBackgroundTask { context in
            let all = try context.fetch(FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)]))
            try context.delete(all[0])                 // uid 1 goes
            all[1][Item.uid] = 20                      // uid 2 becomes 20
            let new = context.insert(Item.self)        // uid 15 comes
            new[Item.uid] = 15
            let request = FetchRequest(Item.self, predicate: try FetchPredicate("uid >= 3"), sortedBy: [.ascending(Item.uid)])
            #expect(try context.fetch(request).map { $0[Item.uid] } == [3, 4, 5, 15, 20])
            #expect(try context.count(for: request) == 5)
            var limited = request
            limited.limit = 2
            limited.offset = 2
            #expect(try context.fetch(limited).map { $0[Item.uid] } == [5, 15])
            var storeOnly = request
            storeOnly.includesPendingChanges = false
            #expect(try context.fetch(storeOnly).map { $0[Item.uid] }.count == 3)
        }
    }

    @Test(arguments: TestStore.all) func dictionariesWithAggregatesGroupsAndHaving(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await container.performBackgroundTask { context in
            for (a, b, c) in [(1, 10, 1), (1, 20, 2), (2, 5, 3), (3, 1, 4), (3, 2, 5), (3, 3, 6)] {
                let row = context.insert(Row3.self)
                row[Row3.a] = a
                row[Row3.b] = b
                row[Row3.c] = c
            }
            try await context.save()
            var request = FetchRequest(Row3.self)
            request.properties = [.attribute("a"), .aggregate(.sum, of: "b", as: "total"), .aggregate(.average, of: "c", as: "mean"),
                                  .aggregate(.minimum, of: "b", as: "low"), .aggregate(.maximum, of: "b", as: "high"), .count(as: "n")]
            request.groupBy = ["a"]
            request.sortKeys = [.ascending("a")]
            let rows = try context.fetchDictionaries(request)
            #expect(rows.count == 3)
            #expect(rows[0] == ["a": .integer(1), "total": .integer(30), "mean": .double(1.5), "low": .integer(10), "high": .integer(20), "n": .integer(2)])
            #expect(rows[2]["n"] == .integer(3))
            request.having = try FetchPredicate("n >= 2 AND total < %@", 25)
            #expect(try context.fetchDictionaries(request).map { $0["a"] } == [.integer(3)])
            var whole = FetchRequest(Row3.self, predicate: try FetchPredicate("a != 2"))
            whole.properties = [.aggregate(.sum, of: "b", as: "sum"), .count(as: "count")]
            #expect(try context.fetchDictionaries(whole) == [["sum": .integer(36), "count": .integer(5)]])
        }
    }

    @Test(arguments: TestStore.all) func aggregatesOfNoRowsAreNull(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await container.performBackgroundTask { context in
            var request = FetchRequest(Row3.self)
            request.properties = [.aggregate(.average, of: "b", as: "mean"), .count(as: "n")]
            let rows = try context.fetchDictionaries(request)
            #expect(rows == [["mean": .null, "n": .integer(0)]])
        }
    }

    @Test(arguments: TestStore.all) func enumerateStreamsInBatchesAndDropsUnchangedObjects(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...2_500, in: container)
        try await container.performBackgroundTask { context in
            var request = FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)])
            request.batchSize = 1_000
            var sizes: [Int] = []
            var largestRegistered = 0
            var sum = 0
            try context.enumerate(request) { batch in
                sizes.append(batch.count)
                sum += batch.reduce(0) { $0 + Int($1[Item.uid]) }
                largestRegistered = max(largestRegistered, context.registeredObjects.count)
                // A nested fetch of the same query inside a batch works on its own statement.
                let nestedCount = try context.count(for: request)
                #expect(nestedCount == 2_500)
            }
            #expect(sizes == [1_000, 1_000, 500])
            #expect(sum == 2_500 * 2_501 / 2)
            #expect(largestRegistered <= 1_000)
            #expect(context.registeredObjects.isEmpty)
        }
    }

    @Test(arguments: TestStore.all) func unknownAttributesNameTheEntity(store: TestStore) async throws {
        let container = try await makeContainer(store)
        await container.performBackgroundTask { context in
            #expect(throws: SchemaError.unknownAttribute(entity: "Item", attribute: "titel", suggestion: "title")) {
                try context.fetch(FetchRequest(Item.self, predicate: try FetchPredicate("titel == 'x'")))
            }
            #expect(throws: SchemaError.unknownAttribute(entity: "Item", attribute: "size", suggestion: nil)) {
                try context.fetch(FetchRequest(Item.self, sortedBy: [.ascending("size")]))
            }
        }
    }

    @Test(arguments: TestStore.all) func predicateValuesNeverBecomeSQL(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...3, in: container)
        try await container.performBackgroundTask { context in
            let hostile = "x' OR 1=1 --"
            let request = FetchRequest(Item.self, predicate: try FetchPredicate("title == %@", hostile))
            let matches = try context.fetch(request)
            #expect(matches.isEmpty)
            #expect(try context.count(for: FetchRequest(Item.self)) == 3)
        }
    }
}
