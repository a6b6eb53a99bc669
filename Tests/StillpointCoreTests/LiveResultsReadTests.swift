import Foundation
import Testing
@testable import StillpointCore

/// Live results on a context that merges automatically read what a change set needs off the context's executor
/// (the main actor, for the view context), then apply it there: the main actor stays free while the store is
/// slow, the snapshots stay in save order, and a read made out of date meanwhile is not applied.
@Suite("Live results' reads ahead of a merge")
struct LiveResultsReadTests {
    /// A container whose store can hold back its reads' answers, over a new store of `store`'s kind holding
    /// items 1 to 5; the first container is returned too, to keep its store open.
    private func makeHoldingContainer(_ store: TestStore) async throws -> (PersistentContainer, ReadHoldingStore, PersistentContainer) {
        let base = try await makeContainer(store)
        try await insertItems(1...5, in: base)
        let holding = ReadHoldingStore(base.store)
        return (PersistentContainer(store: holding), holding, base)
    }

    /// Live results of every item by title on the view context, and a save elsewhere that renames item 3 "a",
    /// whose merge's read (which finds "a") is held back when this returns.
    private func renameItem3WhileTheMergesReadIsHeld(in container: PersistentContainer, holding: ReadHoldingStore)
        async throws -> (LiveResults, ChangeSet) {
        let view = container.viewContext
        await view.setAutomaticallyMergesChangesFromParent(true)
        let results = try await view.liveResults(for: FetchRequest(Item.self, sortedBy: [.ascending(Item.title)]))
        let renamed = try await container.performBackgroundTask { context in
            let item = try #require(try context.fetch(FetchRequest(Item.self, predicate: try FetchPredicate("uid == 3"))).first)
            item[Item.title] = "a"
            holding.holdNextReads(1)
            return try #require(try await context.save())
        }
        _ = try await eventually { holding.readsHeld } until: { $0 == 1 }
        return (results, renamed)
    }

    @Test(arguments: TestStore.all) func theMainActorStaysFreeWhileAMergeReadsTheStore(store: TestStore) async throws {
        let (container, holding, base) = try await makeHoldingContainer(store)
        defer { withExtendedLifetime(base) {} }
        let view = container.viewContext
        await view.setAutomaticallyMergesChangesFromParent(true)
        let results = try await view.liveResults(for: FetchRequest(Item.self, sortedBy: [.descending(Item.uid)], limit: 3))
        #expect(results.latest.rows.map { $0[Item.uid] } == [5, 4, 3])

        let changeSet = try await container.performBackgroundTask { context in
            let item = context.insert(Item.self)
            item[Item.uid] = 6
            item[Item.title] = "item 6"
            holding.holdNextReads(1)
            return try #require(try await context.save())
        }
        // The merge's read of the new row is under way, and held back.
        _ = try await eventually { holding.readsHeld } until: { $0 == 1 }
        let freeWhileHeld = await MainActor.run { holding.isHolding }
        #expect(freeWhileHeld, "the main actor ran while the merge's read was held back")
        holding.release()

        await container.waitUntilMerged(changeSet)
        let next = results.latest
        #expect(next.rows.map { $0[Item.uid] } == [6, 5, 4])
        #expect(next.rowsRead == 1)
        #expect(next.difference.inserted == [LivePosition(section: 0, item: 0)])
        try await expectFreshFetch(of: results, equals: next)
    }

    /// Rows leave a full window: the rows that follow are read with the changed rows, off the main actor too.
    @Test(arguments: TestStore.all) func aWindowRefillsWithoutReadingOnTheMainActor(store: TestStore) async throws {
        let (container, holding, base) = try await makeHoldingContainer(store)
        defer { withExtendedLifetime(base) {} }
        let view = container.viewContext
        await view.setAutomaticallyMergesChangesFromParent(true)
        let results = try await view.liveResults(for: FetchRequest(Item.self, sortedBy: [.descending(Item.uid)], limit: 3))
        let previous = results.latest

        let changeSet = try await container.performBackgroundTask { context in
            for uid in [Int32(5), 4] {
                let item = try #require(try context.fetch(FetchRequest(Item.self, predicate: try FetchPredicate("uid == \(uid)"))).first)
                try context.delete(item)
            }
            holding.holdNextReads(1)
            return try #require(try await context.save())
        }
        _ = try await eventually { holding.readsHeld } until: { $0 == 1 }
        let freeWhileHeld = await MainActor.run { holding.isHolding }
        #expect(freeWhileHeld)
        holding.release()
        await container.waitUntilMerged(changeSet)
        let next = results.latest
        #expect(next.rows.map { $0[Item.uid] } == [3, 2, 1])
        #expect(replay(next.difference, on: previous, giving: next) == rowIDsBySection(next))
        try await expectFreshFetch(of: results, equals: next)
    }

    /// A row changed again while the first change's read was under way comes out as the store holds it now,
    /// and the snapshots follow the change sets in save order.
    @Test(arguments: TestStore.all) func aRowChangedAgainDuringTheReadComesOutCurrent(store: TestStore) async throws {
        let (container, holding, base) = try await makeHoldingContainer(store)
        defer { withExtendedLifetime(base) {} }
        let (results, renamed) = try await renameItem3WhileTheMergesReadIsHeld(in: container, holding: holding)
        let renamedAgain = try await container.performBackgroundTask { context in
            let item = try #require(try context.fetch(FetchRequest(Item.self, predicate: try FetchPredicate("uid == 3"))).first)
            item[Item.title] = "z"
            return try #require(try await context.save())
        }
        holding.release()
        await container.waitUntilMerged(renamedAgain)
        let last = results.latest
        #expect(last.rows.map { $0[Item.title] } == ["item 1", "item 2", "item 4", "item 5", "z"])
        #expect(last.sequence == renamedAgain.sequence)
        #expect(renamed.sequence < renamedAgain.sequence)
        try await expectFreshFetch(of: results, equals: last)
    }

    /// A save of the view context while a merge's read is held back changes the results first: the read, out of
    /// date, is not applied, and the merge reads the row as it is now.
    @Test(arguments: TestStore.all) func aReadMadeOutOfDateByASaveOfTheContextIsNotApplied(store: TestStore) async throws {
        let (container, holding, base) = try await makeHoldingContainer(store)
        defer { withExtendedLifetime(base) {} }
        let (results, renamed) = try await renameItem3WhileTheMergesReadIsHeld(in: container, holding: holding)
        // The held read found "a"; the view context now saves "z" over it.
        try await container.viewContext.perform { context in
            let item = try #require(try context.fetch(FetchRequest(Item.self, predicate: try FetchPredicate("uid == 3"))).first)
            item[Item.title] = "z"
            try await context.save()
        }
        #expect(results.latest.rows.last?[Item.title] == "z")
        holding.release()
        await container.waitUntilMerged(renamed)
        let last = results.latest
        #expect(last.rows.map { $0[Item.title] } == ["item 1", "item 2", "item 4", "item 5", "z"])
        try await expectFreshFetch(of: results, equals: last)
    }
}
