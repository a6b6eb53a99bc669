import Foundation
@testable import StillpointCore
@testable import StillpointPostgres
@testable import StillpointSQLite
import Testing

/// `pinQueryGeneration()`: a context pinned to one state of the store, on every store that can hold one.
@Suite struct QueryGenerationTests {
    /// The sum of every item's uid, as a dictionary fetch reads it in the store.
    static let uidTotal: FetchRequest = {
        var request = FetchRequest(Item.self)
        request.properties = [.aggregate(.sum, of: "uid", as: "total"), .count(as: "count")]
        return request
    }()

    /// What a context reads of the items: their count, the uids of a fetch, and the total and count of an aggregate.
    struct Reading: Equatable, Sendable {
        let count: Int
        let uids: [Int32]
        let total: AttributeValue?
        let aggregateCount: AttributeValue?

        init(in context: isolated ObjectContext) throws {
            count = try context.count(for: FetchRequest(Item.self))
            uids = try context.fetch(FetchRequest(Item.self)).map { $0[Item.uid] }.sorted()
            let totals = try context.fetchDictionaries(QueryGenerationTests.uidTotal)
            total = totals.first?["total"]
            aggregateCount = totals.first?["count"]
        }

        init(uids: [Int32]) {
            count = uids.count
            self.uids = uids
            total = .integer(Int64(uids.reduce(0, +)))
            aggregateCount = .integer(Int64(uids.count))
        }
    }

    /// A second container on the same store, as another process would open it.
    func secondContainer(on container: PersistentContainer) async throws -> PersistentContainer {
        let location = container.store.location
        let schema = container.store.schema
        return try await blockingWork { try openContainer(schema: schema, location: location) }
    }

    @Test(arguments: TestStore.shareable)
    func aPinnedContextReadsTheStateItWasPinnedTo(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems([1, 2, 3], in: container)
        let pinned = container.newBackgroundContext()
        try await pinned.perform { try $0.pinQueryGeneration() }
        // Another process commits, and another context of this one.
        try await insertItems([4], in: try await secondContainer(on: container))
        try await insertItems([5], in: container)

        #expect(try await pinned.perform { try Reading(in: $0) } == Reading(uids: [1, 2, 3]))
        #expect(try await container.newBackgroundContext().perform { try Reading(in: $0) } == Reading(uids: [1, 2, 3, 4, 5]))

        // Pinned again, it moves on to the state now, and stays there.
        try await pinned.perform { try $0.pinQueryGeneration() }
        try await insertItems([6], in: container)
        #expect(try await pinned.perform { try Reading(in: $0) } == Reading(uids: [1, 2, 3, 4, 5]))

        // Unpinned, it reads the latest state.
        let unpinned = await pinned.perform { context in
            context.unpinQueryGeneration()
            return context.isPinnedToQueryGeneration
        }
        #expect(!unpinned)
        #expect(try await pinned.perform { try Reading(in: $0) } == Reading(uids: [1, 2, 3, 4, 5, 6]))
    }

    @Test(arguments: TestStore.shareable)
    func aSaveMovesAPinnedContextOn(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems([1], in: container)
        let pinned = container.newBackgroundContext()
        try await pinned.perform { try $0.pinQueryGeneration() }
        try await insertItems([2], in: try await secondContainer(on: container))
        #expect(try await pinned.perform { try Reading(in: $0) } == Reading(uids: [1]))

        // A save with nothing to write leaves the generation as it is.
        _ = try await pinned.perform { try await $0.save() }
        #expect(try await pinned.perform { try Reading(in: $0) } == Reading(uids: [1]))

        let (afterSave, stillPinned) = try await pinned.perform { context in
            context.insert(Item.self)[Item.uid] = 3
            try await context.save()
            return (try Reading(in: context), context.isPinnedToQueryGeneration)
        }
        #expect(afterSave == Reading(uids: [1, 2, 3]))
        #expect(stillPinned)

        // Still pinned after the save: to the state its first read after it took.
        try await insertItems([4], in: container)
        #expect(try await pinned.perform { try Reading(in: $0) } == Reading(uids: [1, 2, 3]))
    }

    /// As in Core Data, merges reach the objects the context holds while its fetches keep the generation.
    @Test(arguments: TestStore.shareable)
    func mergesReachHeldObjectsWhileFetchesKeepTheGeneration(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems([1], in: container)
        let pinned = container.newBackgroundContext()
        let held = try await pinned.perform { context in
            try context.pinQueryGeneration()
            return try #require(try context.fetch(FetchRequest(Item.self)).first).objectID
        }
        let changes = try await container.newBackgroundContext().perform { context in
            let item = try context.existingObject(with: held)
            item[Item.title] = "renamed"
            context.insert(Item.self)[Item.uid] = 2
            return try #require(try await context.save())
        }
        let (title, fetchedTitle, count) = try await pinned.perform { context in
            try context.mergeChanges(from: changes)
            let title = try context.existingObject(with: held)[Item.title]
            // The fetch reads the generation's older row, and leaves the object with what the merge brought.
            let fetched = try context.fetch(FetchRequest(Item.self))
            return (title, fetched.map { $0[Item.title] }, try context.count(for: FetchRequest(Item.self)))
        }
        #expect(title == "renamed")
        #expect(fetchedTitle == ["renamed"])
        #expect(count == 1)
    }

    @Test(arguments: TestStore.shareable)
    func aContextThatGoesAwayReleasesItsGeneration(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems([1], in: container)
        var pinned: ObjectContext? = container.newBackgroundContext()
        let backendPID = try await pinned?.perform { context in
            try context.pinQueryGeneration()
            _ = try context.count(for: FetchRequest(Item.self))
            return (context.graph.generation as? PostgresGeneration)?.backendPID
        }
        try await insertItems([2], in: container)
        #expect(try heldTransactions(in: container, backendPID: backendPID) == 1)
        pinned = nil
        // The context's graph is freed on its own queue, after the context.
        let deadline = ContinuousClock.now + .seconds(10)
        while try heldTransactions(in: container, backendPID: backendPID) != 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(try heldTransactions(in: container, backendPID: backendPID) == 0)
    }

    @Test(arguments: TestStore.shareable)
    func unpinningReleasesTheGeneration(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems([1], in: container)
        let pinned = container.newBackgroundContext()
        let backendPID = try await pinned.perform { context in
            try context.pinQueryGeneration()
            return (context.graph.generation as? PostgresGeneration)?.backendPID
        }
        try await insertItems([2], in: container)
        #expect(try heldTransactions(in: container, backendPID: backendPID) == 1)
        await pinned.perform { $0.unpinQueryGeneration() }
        #expect(try heldTransactions(in: container, backendPID: backendPID) == 0)
    }

    /// A writer never waits for a pinned context, and a pinned context never waits for a writer: a wait would
    /// never end, which the time limit turns into a failure. The limit is generous: under the whole suite's load
    /// on two cores, this test's 40 saves alone have taken over two minutes.
    @Test(.timeLimit(.minutes(10)), arguments: TestStore.shareable)
    func writersAndAPinnedContextDoNotWaitForEachOther(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let other = try await secondContainer(on: container)
        try await insertItems([0], in: container)
        let pinned = container.newBackgroundContext()
        try await pinned.perform { try $0.pinQueryGeneration() }
        for uid in Int32(1)...Int32(20) {
            try await insertItems([uid], in: uid.isMultiple(of: 2) ? container : other)
            #expect(try await pinned.perform { try $0.count(for: FetchRequest(Item.self)) } == 1)
        }
        #expect(try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Item.self)) } == 21)
    }

    /// A store closed while a context is pinned releases the generation, rather than wait for it to checkpoint.
    @Test func closingASQLiteStoreReleasesItsGenerations() async throws {
        let container = try await makeContainer(.sqliteFile)
        try await insertItems([1], in: container)
        let pinned = container.newBackgroundContext()
        try await pinned.perform { try $0.pinQueryGeneration() }
        try await insertItems([2], in: container)
        let started = ContinuousClock.now
        try container.store.close()
        #expect(ContinuousClock.now - started < .seconds(9), "the close waited for the pinned context's read")
        _ = pinned
    }

    @Test func sqliteInMemoryRefusesToPin() async throws {
        let container = try await makeContainer(.sqliteMemory)
        await #expect(throws: ContextError.queryGenerationUnavailable(store: ":memory:")) {
            try await container.newBackgroundContext().perform { try $0.pinQueryGeneration() }
        }
        #expect(ContextError.queryGenerationUnavailable(store: ":memory:").localizedDescription.contains("a store that is not in memory"))
    }

    /// Transactions held for a query generation: PostgreSQL's backend `backendPID` idle in one (0 or 1); for SQLite,
    /// 1 when a checkpoint cannot copy the whole WAL back, as it cannot while an older read is held open.
    func heldTransactions(in container: PersistentContainer, backendPID: Int64?) throws -> Int {
        if let backendPID {
            let states = try container.strings("SELECT state FROM pg_stat_activity WHERE pid = \(backendPID)")
            return states.filter { $0 == "idle in transaction" }.count
        }
        return try container.walFramesACheckpointCannotCopy() > 0 ? 1 : 0
    }
}
