import Foundation
import Testing
@testable import StillpointCore

@Suite("Batch operations")
struct BatchOperationTests {
    @MainActor
    @Test(arguments: TestStore.all) func batchDeleteReachesALiveViewContext(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...10, in: container)
        let view = container.viewContext
        await view.setAutomaticallyMergesChangesFromParent(true)
        let held = try await view.perform { context in
            try context.fetch(FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)])).map(\.objectID)
        }
        let result = try await container.performBackgroundTask { context in
            try await context.batchDelete(FetchRequest(Item.self, predicate: try FetchPredicate("uid <= 4")))
        }
        #expect(result.count == 4)
        #expect(Set(result.objectIDs) == Set(held.prefix(4)))
        if let changeSet = result.changeSet { await container.waitUntilMerged(changeSet) }
        let state = try await view.perform { context in
            (context.registeredObjects.count, try context.count(for: FetchRequest(Item.self)))
        }
        #expect(state == (6, 6))
    }

    /// One or a few runs of row ids are deleted run by run, many by the condition: each removes exactly the matches.
    @Test(arguments: TestStore.all, ["uid > 40 AND uid <= 60", "uid > 1000", "uid <= 30 OR uid > 90", "uid IN {\((2...100).filter { $0 % 2 == 0 }.map(String.init).joined(separator: ", "))}"])
    func batchDeleteRemovesExactlyTheMatchingRows(store: TestStore, predicate: String) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...100, in: container)
        let expected = try await container.performBackgroundTask { context in
            Set(try context.fetch(FetchRequest(Item.self, predicate: try FetchPredicate(predicate))).map(\.objectID))
        }
        let result = try await container.performBackgroundTask { context in
            try await context.batchDelete(FetchRequest(Item.self, predicate: try FetchPredicate(predicate)))
        }
        #expect(Set(result.objectIDs) == expected && result.count == expected.count)
        #expect(result.changeSet?.deleted == (expected.isEmpty ? nil : result.objectIDs))
        let left = try await container.performBackgroundTask { context in
            try context.fetch(FetchRequest(Item.self)).map(\.objectID)
        }
        #expect(left.count == 100 - expected.count && expected.isDisjoint(with: left))
    }

    @MainActor
    @Test(arguments: TestStore.all) func batchUpdateRefreshesHeldObjectsAndKeepsTheirUnsavedChanges(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...5, in: container)
        let view = container.viewContext
        await view.setAutomaticallyMergesChangesFromParent(true)
        try await view.perform { context in
            let items = try context.fetch(FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)]))
            items[0][Item.score] = 7   // unsaved, must survive the merge
        }
        let result = try await container.performBackgroundTask { context in
            try await context.batchUpdate(FetchRequest(Item.self, predicate: try FetchPredicate("uid IN %@", [1, 2])),
                                          set: ["title": .string("renamed")])
        }
        #expect(result.count == 2)
        await container.waitUntilMerged(try #require(result.changeSet))
        let state = try await view.perform { context in
            try context.fetch(FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)])).prefix(3).map { ($0[Item.title], $0[Item.score]) }
        }
        #expect(state.map(\.0) == ["renamed", "renamed", "item 3"])
        #expect(state.map(\.1) == [7, nil, nil])
        #expect(result.changeSet?.changedAttributes == ["Item": ["title"]])
    }

    @Test(arguments: TestStore.all) func batchInsertFillsDefaultsAndValidates(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let result = try await container.performBackgroundTask { context in
            try await context.batchInsert(Item.entity, rows: [["uid": .integer(1)], ["uid": .integer(2), "title": .string("two")]])
        }
        #expect(result.count == 2 && result.changeSet?.inserted.count == 2)
        let titles = try await container.newBackgroundContext().perform { context in
            try context.fetch(FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)])).map { $0[Item.title] }
        }
        #expect(titles == ["", "two"])
        await #expect(throws: SaveError.self) {
            try await container.performBackgroundTask { try await $0.batchInsert(Item.entity, rows: [["title": .string("no uid")]]) }
        }
        await #expect(throws: SaveError.self) {
            try await container.performBackgroundTask { try await $0.batchInsert(Item.entity, rows: [["uid": .integer(3)], ["uid": .integer(1)]]) }
        }
        await #expect(throws: SchemaError.self) {
            try await container.performBackgroundTask { try await $0.batchInsert(Item.entity, rows: [["uid": .string("x")]]) }
        }
        let count = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Item.self)) }
        #expect(count == 2, "a failed batch insert writes nothing")
    }

    @Test(arguments: TestStore.all) func theIssuingContextDropsWhatItDeleted(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...3, in: container)
        try await container.performBackgroundTask { context in
            let items = try context.fetch(FetchRequest(Item.self))
            let result = try await context.batchDelete(FetchRequest(Item.self))
            #expect(result.count == 3 && Set(result.objectIDs) == Set(items.map(\.objectID)))
            let allDeleted = items.allSatisfy { $0.isDeleted }
            #expect(allDeleted)
            #expect(context.registeredObjects.isEmpty)
        }
    }

    /// A batch-inserted row whose key is taken follows the merge policy, and a live context holding that row
    /// shows the result.
    @Test(arguments: TestStore.all, MergePolicy.allCases)
    func batchInsertResolvesTakenKeysByThePolicy(store: TestStore, policy: MergePolicy) async throws {
        let container = try await makeContainer(store)
        try await insertItems([1], in: container)
        let observer = container.newBackgroundContext(name: "observer")
        await observer.setAutomaticallyMergesChangesFromParent(true)
        let id = try await observer.perform { context in
            let item = try context.fetch(FetchRequest(Item.self))[0]
            item[Item.score] = 2.5
            try await context.save()
            return item.objectID
        }
        let outcome: Result<BatchResult, any Error> = await container.newBackgroundContext(name: "importer").perform { context in
            context.setMergePolicy(policy)
            do {
                return .success(try await context.batchInsert(Item.entity, rows: [["uid": .integer(1), "title": .string("new")], ["uid": .integer(5)]]))
            } catch {
                return .failure(error)
            }
        }
        if case .success(let result) = outcome, let changeSet = result.changeSet { await container.waitUntilMerged(changeSet) }
        let held = try await observer.perform { context in
            let item = try context.existingObject(with: id)
            return (item[Item.title], item[Item.score], try context.count(for: FetchRequest(Item.self)))
        }
        switch (policy, outcome) {
        case (.error, .failure(SaveError.validation(let failures))):
            #expect(failures.map(\.objectID) == [id])
            #expect(held == ("item 1", 2.5, 1), "a failed batch insert writes nothing")
        case (.mergeByPropertyObjectTrump, .success(let result)):
            #expect(result.count == 2 && result.changeSet?.updated == [id] && result.changeSet?.inserted.count == 1)
            #expect(held == ("new", 2.5, 2), "only the attributes the row names are written")
        case (.overwrite, .success(let result)):
            #expect(result.count == 2 && result.changeSet?.updated == [id])
            #expect(held == ("new", nil, 2), "the whole row is written, defaults included")
        case (.mergeByPropertyStoreTrump, .success(let result)), (.rollback, .success(let result)):
            #expect(result.count == 1 && result.changeSet?.updated.isEmpty == true && result.changeSet?.inserted.count == 1)
            #expect(held == ("item 1", 2.5, 2))
        default:
            Issue.record("\(policy): \(outcome)")
        }
    }
}
