import Foundation
import Testing
@testable import StillpointCore

/// The merge service's promises, one context merging what another saved.
@Suite("Merge service")
struct MergeServiceTests {
    @Test(arguments: TestStore.all) func aMergeByHandRefreshesTheHeldObjectsAndLoadsNoOthers(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...10, in: container)
        let reader = container.newBackgroundContext(name: "reader")
        let held = try await reader.perform { context in
            try context.fetch(FetchRequest(Item.self, predicate: try FetchPredicate("uid <= 2"), sortedBy: [.ascending(Item.uid)])).map(\.objectID)
        }
        let changeSet = try await container.performBackgroundTask { context in
            try #require(try await context.batchUpdate(FetchRequest(Item.self), set: ["title": .string("renamed")]).changeSet)
        }
        #expect(changeSet.updated.count == 10)
        let (titles, registered) = try await reader.perform { context in
            try context.mergeChanges(from: changeSet)
            return (held.map { context.registeredObject(for: $0)?[Item.title] }, context.registeredObjects.count)
        }
        #expect(titles == ["renamed", "renamed"])
        #expect(registered == 2, "objects the context did not hold are not loaded")
    }

    @Test(arguments: TestStore.all) func unsavedChangesSurviveAMergeOfTheSameAttribute(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems([1], in: container)
        let reader = container.newBackgroundContext(name: "reader")
        let id = try await reader.perform { context in
            let item = try context.fetch(FetchRequest(Item.self))[0]
            item[Item.title] = "unsaved"
            return item.objectID
        }
        let changeSet = try await container.performBackgroundTask { context in
            let item = try context.existingObject(with: id)
            item[Item.title] = "saved elsewhere"
            item[Item.score] = 4.5
            return try #require(try await context.save())
        }
        let state = try await reader.perform { context in
            try context.mergeChanges(from: changeSet)
            let item = try context.existingObject(with: id)
            return (item[Item.title], item[Item.score], context.hasChanges)
        }
        #expect(state == ("unsaved", 4.5, true))
    }

    @Test(arguments: TestStore.all) func aDeletedHeldObjectIsMarkedDeletedAndDropped(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems([1, 2], in: container)
        let reader = container.newBackgroundContext(name: "reader")
        let id = try await reader.perform { try $0.fetch(FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)]))[0].objectID }
        let changeSet = try await container.performBackgroundTask { context in
            try context.delete(try context.existingObject(with: id))
            return try #require(try await context.save())
        }
        let state = try await reader.perform { context in
            let held = context.registeredObject(for: id)
            let item = try #require(held)
            try context.mergeChanges(from: changeSet)
            return (item.isDeleted, context.registeredObject(for: id) == nil, context.registeredObjects.count)
        }
        #expect(state == (true, true, 1))
    }

    /// An automatic merge whose read fails (the context was interrupted) is made again before the next one.
    @Test(arguments: TestStore.all) func aFailedAutomaticMergeIsMadeAgainWithTheNextOne(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems([1, 2], in: container)
        let observer = container.newBackgroundContext(name: "observer")
        await observer.setAutomaticallyMergesChangesFromParent(true)
        let ids = try await observer.perform { try $0.fetch(FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)])).map(\.objectID) }
        func rename(_ id: ObjectID, to title: String) async throws {
            let changeSet = try await container.performBackgroundTask { context in
                try context.existingObject(with: id)[Item.title] = title
                return try #require(try await context.save())
            }
            await container.waitUntilMerged(changeSet)
        }

        observer.interrupt()
        try await rename(ids[0], to: "while interrupted")
        let failed = await observer.perform { context in
            (context.registeredObject(for: ids[0])?[Item.title], context.lastMergeError is CancellationError)
        }
        #expect(failed == ("item 1", true))

        observer.clearInterrupt()
        try await rename(ids[1], to: "after")
        let titles = await observer.perform { context in ids.map { context.registeredObject(for: $0)?[Item.title] } }
        #expect(titles == ["while interrupted", "after"])
    }
}
