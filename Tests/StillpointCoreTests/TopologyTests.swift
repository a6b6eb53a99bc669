import Foundation
import Testing
@testable import StillpointCore

/// The seeds' stack topologies, end to end.
@Suite("Topologies")
struct TopologyTests {
    /// Siblings (seeds 000, 001, 003): background contexts on the store; the view context merges their saves.
    @MainActor
    @Test(arguments: TestStore.all) func siblings(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let view = container.viewContext
        await view.setAutomaticallyMergesChangesFromParent(true)
        try await insertItems([1], in: container)
        let id = try await view.perform { try $0.fetch(FetchRequest(Item.self))[0].objectID }
        let changeSet = try await container.performBackgroundTask { context in
            try context.existingObject(with: id)[Item.title] = "from a sibling"
            return try await context.save()
        }
        await container.waitUntilMerged(try #require(changeSet))
        let title = try await view.perform { try $0.existingObject(with: id)[Item.title] }
        #expect(title == "from a sibling")
    }

    /// Parent-child (seed 004): a private child of the view context; its save reaches the view context, and
    /// the view context's save persists.
    @MainActor
    @Test(arguments: TestStore.all) func parentChild(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let view = container.viewContext
        let child = await view.newChildContext(name: "writer")
        try await child.perform { context in
            for uid in 1...3 as ClosedRange<Int32> { context.insert(Item.self)[Item.uid] = uid }
            try await context.save()
        }
        let inView = try await view.perform { context in (context.insertedObjects.count, try context.count(for: FetchRequest(Item.self))) }
        #expect(inView == (3, 3))
        var stored = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Item.self)) }
        #expect(stored == 0)
        _ = try await view.perform { try await $0.save() }
        stored = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Item.self)) }
        #expect(stored == 3)
    }

    /// Root-writer (seed 002): a private root owns the store, the view context is its child, workers are
    /// children of the root. A worker's save reaches the root and is merged into the view context; the root
    /// persists in the background.
    @MainActor
    @Test(arguments: TestStore.all) func rootWriter(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let root = container.newBackgroundContext(name: "root")
        let view = await root.newChildContext(name: "view", onMainActor: true)
        await view.setAutomaticallyMergesChangesFromParent(true)
        let worker = await root.newChildContext(name: "worker")
        let heldID = try await {
            try await insertItems([100], in: container)
            return try await view.perform { try $0.fetch(FetchRequest(Item.self))[0].objectID }
        }()
        try await worker.perform { context in
            for uid in 1...3 as ClosedRange<Int32> { context.insert(Item.self)[Item.uid] = uid }
            try context.existingObject(with: heldID)[Item.title] = "edited by a worker"
            try await context.save()
        }
        // The view context hears of it through the root, without the store.
        let seen = try await eventually {
            try await view.perform { context in
                (try context.count(for: FetchRequest(Item.self)), try context.existingObject(with: heldID)[Item.title])
            }
        } until: { $0 == (4, "edited by a worker") }
        #expect(seen == (4, "edited by a worker"))
        var stored = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Item.self)) }
        #expect(stored == 1)
        _ = try await root.perform { try await $0.save() }
        stored = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Item.self)) }
        #expect(stored == 4)
        // After the root's save the view context still sees each object once, now with permanent IDs.
        let afterSave = try await eventually {
            try await view.perform { context in try context.fetchObjectIDs(FetchRequest(Item.self)) }
        } until: { ids in ids.count == 4 && ids.allSatisfy { !$0.isTemporary } }
        #expect(afterSave.count == 4)
    }

    @Test(arguments: TestStore.all) func mergesAreAppliedInSaveOrderUnderConcurrentWriters(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems([1], in: container)
        let observer = container.newBackgroundContext(name: "observer")
        await observer.setAutomaticallyMergesChangesFromParent(true)
        let id = try await observer.perform { try $0.fetch(FetchRequest(Item.self))[0].objectID }
        let sequences = container.changeSets
        let writes = 40
        // What the observer shows while the writers write: its object's version may only move forward.
        let sampler = Task {
            var versions: [Int64] = []
            while !Task.isCancelled {
                // A read cut short by the cancel at the end is simply not counted.
                if let version = try? await observer.perform({ try $0.existingObject(with: id).version }) { versions.append(version) }
                await Task.yield()
            }
            return versions
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    let context = container.newBackgroundContext(name: "writer-\(writer)")
                    await context.setMergePolicy(.mergeByPropertyObjectTrump)
                    for step in 0..<(writes / 4) {
                        try await context.perform { context in
                            try context.refresh(try context.existingObject(with: id), mergeChanges: false)
                            try context.existingObject(with: id)[Item.title] = "w\(writer)-\(step)"
                            try await context.save()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        sampler.cancel()
        let versions = await sampler.value
        var seen: [Int64] = []
        for await changeSet in sequences {
            seen.append(changeSet.sequence)
            if seen.count == writes { break }
        }
        #expect(seen == seen.sorted() && Set(seen).count == writes)
        let last = try #require(seen.last)
        await container.waitUntilMerged(ChangeSet(sequence: last, author: "", timestamp: Date(), inserted: [], updated: [], deleted: [], changedAttributes: [:]))
        let (merged, version, stored) = try await observer.perform { context in
            (try context.existingObject(with: id)[Item.title], try context.existingObject(with: id).version,
             try context.fetchDictionaries(FetchRequest(Item.self))[0]["title"])
        }
        let storedVersion = try await container.newBackgroundContext().perform { try $0.existingObject(with: id).version }
        #expect(.string(merged) == stored)
        #expect(version == storedVersion && version == Int64(writes) + 1)
        let shown = versions + [version]
        #expect(shown == shown.sorted(), "the observer showed an older state after a newer one")
    }
}

/// Polls `value` until `condition` holds, for changes that arrive asynchronously (the bound only stops a hang).
func eventually<T: Sendable>(_ value: @Sendable () async throws -> T, until condition: @Sendable (T) -> Bool) async throws -> T {
    let deadline = ContinuousClock.now + .seconds(60)
    var current = try await value()
    while !condition(current), ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(5))
        current = try await value()
    }
    return current
}
