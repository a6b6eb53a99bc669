import Foundation
import Testing
@testable import StillpointCore

@Suite("ObjectContext")
struct ObjectContextTests {
    @Test(arguments: TestStore.all) func insertSaveAndFetchInAnotherContext(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let id = try await container.performBackgroundTask { context in
            let item = context.insert(Item.self)
            item[Item.uid] = 7
            item[Item.title] = "Breath"
            #expect(item.objectID.isTemporary)
            try await context.save()
            #expect(!item.objectID.isTemporary)
            return item.objectID
        }
        let title = try await container.newBackgroundContext().perform { context in
            try context.existingObject(with: id)[Item.title]
        }
        #expect(title == "Breath")
    }

    @Test(arguments: TestStore.all) func typedAttributesRoundTripEveryType(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let date = Date(timeIntervalSince1970: 1_700_000_000.5)
        let uuid = UUID()
        let id = try await container.performBackgroundTask { context in
            let object = context.insert(Kitchen.self)
            object[Kitchen.integer] = Int64.max
            object[Kitchen.double] = 2.5
            object[Kitchen.string] = "naïve ☀︎"
            object[Kitchen.bool] = true
            object[Kitchen.date] = date
            object[Kitchen.uuid] = uuid
            object[Kitchen.binary] = Data([0, 1, 2, 255])
            try await context.save()
            return object.objectID
        }
        try await container.newBackgroundContext().perform { context in
            let object = try context.existingObject(with: id)
            #expect(object[Kitchen.integer] == Int64.max)
            #expect(object[Kitchen.double] == 2.5)
            #expect(object[Kitchen.string] == "naïve ☀︎")
            #expect(object[Kitchen.bool] == true)
            #expect(object[Kitchen.date] == date)
            #expect(object[Kitchen.uuid] == uuid)
            #expect(object[Kitchen.binary] == Data([0, 1, 2, 255]))
            #expect(object[Kitchen.note] == nil)
        }
    }

    @Test(arguments: TestStore.all) func identityMapGivesOneInstancePerObject(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...3, in: container)
        try await container.performBackgroundTask { context in
            let first = try context.fetch(FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)]))
            let second = try context.fetch(FetchRequest(Item.self, sortedBy: [.descending(Item.uid)]))
            #expect(first.count == 3)
            #expect(first[0] === second[2])
            #expect(try context.existingObject(with: first[1].objectID) === first[1])
        }
    }

    @Test(arguments: TestStore.all) func changeTrackingSetsAndValues(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...3, in: container)
        try await container.performBackgroundTask { context in
            #expect(!(context.hasChanges as Bool))
            let items = try context.fetch(FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)]))
            items[0][Item.title] = "changed"
            try context.delete(items[1])
            let new = context.insert(Item.self)
            new[Item.uid] = 10
            #expect((context.hasChanges as Bool))
            #expect(context.updatedObjects.map(\.objectID) == [items[0].objectID])
            #expect(context.deletedObjects.map(\.objectID) == [items[1].objectID])
            #expect(context.insertedObjects.map(\.objectID) == [new.objectID])
            #expect(items[0].changedValues == ["title": .string("changed")])
            #expect(items[0].committedValuesForChangedAttributes == ["title": .string("item 1")])
            #expect(items[0].hasChanges && items[1].isDeleted && new.isInserted)
            // Setting a value back to what was read is no change at all.
            items[0][Item.title] = "item 1"
            #expect(!items[0].hasChanges)
            #expect(context.updatedObjects.isEmpty)
        }
    }

    @Test(arguments: TestStore.all) func rollbackRestoresEverything(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...2, in: container)
        try await container.performBackgroundTask { context in
            let items = try context.fetch(FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)]))
            items[0][Item.title] = "changed"
            try context.delete(items[1])
            let new = context.insert(Item.self)
            new[Item.uid] = 3
            context.rollback()
            #expect(!(context.hasChanges as Bool))
            #expect(items[0][Item.title] == "item 1")
            #expect(!items[1].isDeleted)
            #expect(try context.count(for: FetchRequest(Item.self)) == 2)
        }
    }

    @Test(arguments: TestStore.all) func resetForgetsObjects(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...2, in: container)
        try await container.performBackgroundTask { context in
            let before = try context.fetch(FetchRequest(Item.self))
            before[0][Item.title] = "unsaved"
            context.reset()
            #expect(context.registeredObjects.isEmpty)
            #expect(!(context.hasChanges as Bool))
            let after = try context.fetch(FetchRequest(Item.self))
            #expect(after[0] !== before[0])
            #expect(after.map { $0[Item.title] }.sorted() == ["item 1", "item 2"])
        }
    }

    @Test(arguments: TestStore.all) func refreshWithAndWithoutMergingChanges(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems([1], in: container)
        let reader = container.newBackgroundContext()
        let id = try await reader.perform { context in
            let item = try context.fetch(FetchRequest(Item.self))[0]
            item[Item.score] = 9
            return item.objectID
        }
        try await container.performBackgroundTask { context in
            try context.existingObject(with: id)[Item.title] = "from elsewhere"
            try await context.save()
        }
        try await reader.perform { context in
            let item = try context.existingObject(with: id)
            #expect(item[Item.title] == "item 1")
            try context.refresh(item, mergeChanges: true)
            #expect(item[Item.title] == "from elsewhere")
            #expect(item[Item.score] == 9)
            #expect(item.hasChanges)
            try context.refresh(item, mergeChanges: false)
            #expect(item[Item.score] == nil)
            #expect(!(context.hasChanges as Bool))
            // The refreshed version saves without a conflict.
            item[Item.score] = 1
            try await context.save()
        }
    }

    @Test(arguments: TestStore.all) func deletedObjectIsGoneAfterSave(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...2, in: container)
        let id = try await container.performBackgroundTask { context in
            let item = try context.fetch(FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)]))[0]
            try context.delete(item)
            try await context.save()
            return item.objectID
        }
        await #expect(throws: ContextError.objectNotFound(id)) {
            try await container.newBackgroundContext().perform { try $0.existingObject(with: id).objectID }
        }
    }

    @MainActor
    @Test(arguments: TestStore.all) func viewContextRunsOnTheMainActorAndSavesOffIt(store: TestStore) async throws {
        let container = try await makeContainer(store)
        #expect(container.viewContext.isViewContext)
        // Traps unless the view context's work runs on the main actor.
        let onMainActor = await container.viewContext.perform { _ in isOnMainActor() }
        #expect(onMainActor)
        try await container.viewContext.perform { context in
            let item = context.insert(Item.self)
            item[Item.uid] = 1
            try await context.save()
        }
        let count = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Item.self)) }
        #expect(count == 1)
    }

    @MainActor
    @Test(arguments: TestStore.all) func performAndWaitFromTheMainActor(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...4, in: container)
        let background = container.newBackgroundContext()
        let count = try background.performAndWait { context in
            // Re-entering the same context from inside runs at once instead of deadlocking.
            try context.performAndWait { try $0.count(for: FetchRequest(Item.self)) }
        }
        #expect(count == 4)
        let viaView = try container.viewContext.performAndWait { try $0.count(for: FetchRequest(Item.self)) }
        #expect(viaView == 4)
    }

    @Test(arguments: TestStore.all) func backgroundContextsRunOnTheirOwnExecutors(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let first = container.newBackgroundContext()
        let second = container.newBackgroundContext()
        #expect(first.name != second.name)
        // Each runs on its own serial queue: work on one never waits for the other.
        let blocker = DispatchSemaphore(value: 0)
        async let held: Void = first.perform { _ in blocker.wait() }
        _ = await second.perform { _ in blocker.signal() }
        await held
    }
}

/// Traps unless called on the main actor's executor.
private func isOnMainActor() -> Bool {
    MainActor.assumeIsolated { true }
}

@Suite("Interrupting a context")
struct InterruptTests {
    @Test(arguments: TestStore.all) func anInterruptedContextRunsNoStatementUntilCleared(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...3, in: container)
        let context = container.newBackgroundContext()
        context.interrupt()
        #expect(context.isInterrupted)
        await #expect(throws: CancellationError.self) {
            try await context.perform { try $0.count(for: FetchRequest(Item.self)) }
        }
        await #expect(throws: CancellationError.self) {
            try await context.perform { context in
                context.insert(Item.self)[Item.uid] = 9
                try await context.save()
            }
        }
        context.clearInterrupt()
        // The failed save kept its change: the unsaved insert still counts until it is rolled back.
        let counts = try await context.perform { context in
            let pending = try context.count(for: FetchRequest(Item.self))
            context.rollback()
            return (pending, try context.count(for: FetchRequest(Item.self)))
        }
        #expect(counts == (4, 3))
    }
}
