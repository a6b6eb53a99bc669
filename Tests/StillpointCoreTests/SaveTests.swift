import Foundation
import Testing
@testable import StillpointCore

@Suite("Saving")
struct SaveTests {
    /// The view context's save suspends while the writer works: a second save meanwhile waits for it, and
    /// does not send the same inserted objects again.
    @MainActor
    @Test(arguments: TestStore.all) func savesThatOverlapWriteEachChangeOnce(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let view = container.viewContext
        await view.perform { context in
            for uid in 1...200 {
                let item = context.insert(Item.self)
                item[Item.uid] = Int32(uid)
                item[Item.title] = "item \(uid)"
            }
        }
        async let first = view.perform { context in try await context.save()?.inserted.count }
        async let second = view.perform { context in try await context.save()?.inserted.count }
        let (a, b) = try await (first, second)
        #expect([a, b].compactMap { $0 } == [200])
        #expect(try await view.perform { try $0.count(for: FetchRequest(Item.self)) } == 200)
        let stored = try await container.performBackgroundTask { try $0.count(for: FetchRequest(Item.self)) }
        #expect(stored == 200)
    }

    @Test(arguments: TestStore.all) func aStaleUpdateFailsWithATypedConflictAndChangesNothing(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems([1], in: container)
        let stale = container.newBackgroundContext()
        let id = try await stale.perform { try $0.fetch(FetchRequest(Item.self))[0].objectID }
        try await container.performBackgroundTask { context in
            try context.existingObject(with: id)[Item.title] = "first"
            try await context.save()
        }
        let error = await #expect(throws: SaveError.self) {
            try await stale.perform { context in
                let item = try context.existingObject(with: id)
                item[Item.title] = "second"
                item[Item.score] = 2
                try await context.save()
            }
        }
        guard case .conflicts(let conflicts)? = error else { Issue.record("expected conflicts"); return }
        #expect(conflicts.count == 1)
        #expect(conflicts[0].objectID == id)
        #expect(conflicts[0].readVersion == 1 && conflicts[0].storeVersion == 2)
        #expect(conflicts[0].attributes.contains(AttributeConflict(name: "title", readValue: .string("item 1"), objectValue: .string("second"), storeValue: .string("first"))))
        let title = try await container.newBackgroundContext().perform { try $0.existingObject(with: id)[Item.title] }
        #expect(title == "first")
        let stillChanged = await stale.perform { $0.hasChanges }
        #expect(stillChanged)
    }

    @Test(arguments: TestStore.all) func aFailedSaveIsOneTransaction(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems([1], in: container)
        await #expect(throws: SaveError.self) {
            try await container.performBackgroundTask { context in
                for uid in [2, 3, 1] as [Int32] {   // the last one breaks the unique uid
                    context.insert(Item.self)[Item.uid] = uid
                }
                try await context.save()
            }
        }
        let count = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Item.self)) }
        #expect(count == 1)
    }

    @Test(arguments: TestStore.all) func uniquenessViolationNamesTheConstraint(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems([1], in: container)
        let error = await #expect(throws: SaveError.self) {
            try await container.performBackgroundTask { context in
                context.insert(Item.self)[Item.uid] = 1
                try await context.save()
            }
        }
        guard case .validation(let failures)? = error, let failure = failures.first else { Issue.record("expected a validation error"); return }
        #expect(failure.reason == .uniquenessViolation(attributes: ["uid"], values: [.integer(1)]))
    }

    @Test(arguments: TestStore.all) func aMissingRequiredValueFailsValidation(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let error = await #expect(throws: SaveError.self) {
            try await container.performBackgroundTask { context in
                let object = context.insert(Kitchen.self)
                object[Kitchen.integer] = 1
                try await context.save()
            }
        }
        guard case .validation(let failures)? = error else { Issue.record("expected a validation error"); return }
        #expect(Set(failures.map(\.reason)) == Set(["double", "string", "bool", "date", "uuid", "binary"].map { ValidationFailure.Reason.missingValue(attribute: $0) }))
        let count = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Kitchen.self)) }
        #expect(count == 0)
    }

    @Test(arguments: TestStore.all) func savesAndBatchesPublishChangeSetsInOrderToEveryObserver(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let changes = container.changeSets, otherObserver = container.changeSets
        let start = Date()
        try await insertItems(1...3, in: container)
        let editor = container.newBackgroundContext(name: "editor")
        try await editor.perform { context in
            let items = try context.fetch(FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)]))
            items[0][Item.title] = "renamed"
            try context.delete(items[2])
            try await context.save()
            try await context.batchInsert(Item.entity, rows: [["uid": .integer(4)]])
        }
        let end = Date()
        var iterator = changes.makeAsyncIterator(), otherIterator = otherObserver.makeAsyncIterator()
        var received: [ChangeSet] = [], receivedByTheOther: [Int64] = []
        for _ in 0..<3 {
            received.append(try #require(await iterator.next()))
            receivedByTheOther.append(try #require(await otherIterator.next()).sequence)
        }
        #expect(received.map(\.sequence) == receivedByTheOther)
        #expect(received[0].sequence < received[1].sequence && received[1].sequence < received[2].sequence)
        #expect(received[0].inserted.count == 3 && received[0].updated.isEmpty)
        #expect(received[1].updated.count == 1 && received[1].deleted.count == 1)
        #expect(received[1].changedAttributes == ["Item": ["title"]])
        #expect(received[2].inserted.count == 1)
        #expect(received[1].author == "editor" && received[2].author == "editor")
        #expect(received.allSatisfy { start <= $0.timestamp && $0.timestamp <= end })
    }

    @Test(arguments: TestStore.all) func childContextSavesReachTheParentOnly(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems([1], in: container)
        let parent = container.newBackgroundContext()
        let child = await parent.newChildContext()
        try await child.perform { context in
            context.insert(Item.self)[Item.uid] = 2
            try context.fetch(FetchRequest(Item.self))[0][Item.title] = "edited in child"
            try await context.save()
            #expect(!(context.hasChanges as Bool))
            #expect(try context.count(for: FetchRequest(Item.self)) == 2)
        }
        var storeCount = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Item.self)) }
        #expect(storeCount == 1)
        try await parent.perform { context in
            #expect(context.insertedObjects.count == 1)
            #expect(try context.fetch(FetchRequest(Item.self, predicate: try FetchPredicate("uid == 1")))[0][Item.title] == "edited in child")
            try await context.save()
        }
        storeCount = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Item.self)) }
        #expect(storeCount == 2)
    }

    @Test(arguments: TestStore.all) func aChildSeesItsParentsUnsavedChanges(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...2, in: container)
        let parent = container.newBackgroundContext()
        let child = try await parent.perform { context in
            context.insert(Item.self)[Item.uid] = 3
            try context.delete(try context.fetch(FetchRequest(Item.self, predicate: try FetchPredicate("uid == 1")))[0])
            return context.newChildContext()
        }
        let uids = try await child.perform { context in
            try context.fetch(FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)])).map { $0[Item.uid] }
        }
        #expect(uids == [2, 3])
    }

    /// A child counts its parent's unsaved changes from their values: it makes no object of them, and a row the
    /// parent deleted is not counted even when nothing else is pending.
    @Test(arguments: TestStore.all) func aChildCountsItsParentsUnsavedChangesWithoutMakingObjects(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...4, in: container)
        let parent = container.newBackgroundContext()
        let children = try await parent.perform { context in
            let onlyDeleting = context.newChildContext()
            try context.delete(try context.fetch(FetchRequest(Item.self, predicate: try FetchPredicate("uid == 1")))[0])
            let deletingOnly = context.newChildContext()
            for uid: Int32 in 5...7 { context.insert(Item.self)[Item.uid] = uid }
            try context.fetch(FetchRequest(Item.self, predicate: try FetchPredicate("uid == 2")))[0][Item.uid] = 20
            return (onlyDeleting, deletingOnly, context.newChildContext())
        }
        let beforeDelete = try await children.0.perform { try $0.count(for: FetchRequest(Item.self)) }
        #expect(beforeDelete == 4)
        let afterDelete = try await children.1.perform { try $0.count(for: FetchRequest(Item.self)) }
        #expect(afterDelete == 3)
        let counts = try await children.2.perform { context in
            (try context.count(for: FetchRequest(Item.self)),
             try context.count(for: FetchRequest(Item.self, predicate: try FetchPredicate("uid >= 5"))),
             try context.count(for: FetchRequest(Item.self, predicate: try FetchPredicate("uid == 2"))),
             context.registeredObjects.count)
        }
        #expect(counts == (6, 4, 0, 0))  // 2..4 stored (2 now 20), 5...7 inserted; uid >= 5: 5, 6, 7 and 20
    }
}
