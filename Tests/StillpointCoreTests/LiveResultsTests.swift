import Foundation
import Testing
@testable import StillpointCore

/// Live results: the first fetch, each kind of change at its positions, sections, a limit's window, changes from
/// other contexts, batches and another container on the same store, what a change reads, and concurrent writers.
@Suite("Live results")
struct LiveResultsTests {
    @Test(arguments: TestStore.all) func theFirstSnapshotIsTheFetchWithEveryRowInserted(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems([3, 1, 2], in: container)
        let results = try await container.viewContext.liveResults(for: FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)]))
        let first = results.latest
        #expect(first.generation == 0)
        #expect(first.rows.map { $0[Item.uid] } == [1, 2, 3])
        #expect(first.rows.map { $0[Item.title] } == ["item 1", "item 2", "item 3"])
        #expect(first.sections.count == 1 && first.sections[0].name == "" && first.sections[0].count == 3)
        var iterator = results.makeAsyncIterator()
        let delivered = try #require(await iterator.next())
        #expect(delivered.generation == 0)
        #expect(delivered.difference.inserted == (0..<3).map { LivePosition(section: 0, item: $0) })
        #expect(delivered.difference.insertedSections == [0])
    }

    @Test(arguments: TestStore.all) func insertsUpdatesMovesAndDeletesArriveAtTheirPositions(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...5, in: container)
        let view = container.viewContext
        await view.setAutomaticallyMergesChangesFromParent(true)
        let results = try await view.liveResults(for: FetchRequest(Item.self, sortedBy: [.ascending(Item.title)]))
        var previous = results.latest

        func change(_ body: @escaping @Sendable (isolated ObjectContext) throws -> Void) async throws -> LiveSnapshot {
            let changeSet = try await container.performBackgroundTask { context in
                try body(context)
                return try #require(try await context.save())
            }
            await container.waitUntilMerged(changeSet)
            let next = results.latest
            #expect(next.generation == previous.generation + 1)
            #expect(replay(next.difference, on: previous, giving: next) == rowIDsBySection(next))
            previous = next
            return next
        }

        let inserted = try await change { context in
            let item = context.insert(Item.self)
            item[Item.uid] = 35
            item[Item.title] = "item 35"
        }
        #expect(inserted.difference.inserted == [LivePosition(section: 0, item: 3)])
        #expect(inserted.difference.deleted.isEmpty && inserted.difference.moved.isEmpty && inserted.difference.updated.isEmpty)
        #expect(inserted.rowsRead == 1)

        let updated = try await change { context in try item("item 2", in: context)[Item.title] = "item 2b" }
        #expect(updated.difference.updated == [LivePosition(section: 0, item: 1)])
        #expect(updated.difference.inserted.isEmpty && updated.difference.moved.isEmpty)
        #expect(updated[LivePosition(section: 0, item: 1)][Item.title] == "item 2b")

        let moved = try await change { context in try item("item 1", in: context)[Item.title] = "item 9" }
        #expect(moved.difference.moved == [LiveMove(from: LivePosition(section: 0, item: 0), to: LivePosition(section: 0, item: 5))])
        #expect(moved.difference.updated.isEmpty)

        let deleted = try await change { context in try context.delete(try item("item 4", in: context)) }
        #expect(deleted.difference.deleted == [LivePosition(section: 0, item: 3)])
        #expect(deleted.rows.map { $0[Item.title] } == ["item 2b", "item 3", "item 35", "item 5", "item 9"])
    }

    @Test(arguments: TestStore.all) func sectionsFollowTheSectionKey(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let context = container.newBackgroundContext()
        let scores: [(Int32, Double?)] = [(1, nil), (2, 1), (3, 1), (4, 2)]
        try await context.perform { context in
            for (uid, score) in scores {
                let item = context.insert(Item.self)
                item[Item.uid] = uid
                item[Item.score] = score
            }
            try await context.save()
        }
        let request = FetchRequest(Item.self, sortedBy: [.ascending(Item.score), .ascending(Item.uid)])
        let results = try await context.liveResults(for: request, sectionedBy: "score")
        let first = results.latest
        #expect(first.sections.map(\.name) == ["", "1.0", "2.0"])
        #expect(first.sections.map(\.count) == [1, 2, 1])
        #expect(first.rows(in: first.sections[1]).map { $0[Item.uid] } == [2, 3])

        // The only row of section 2.0 joins section 1.0; a new row opens section 3.0.
        try await context.perform { context in
            let four = try #require(try context.fetch(FetchRequest(Item.self, predicate: try FetchPredicate("uid == 4"))).first)
            four[Item.score] = 1
            let five = context.insert(Item.self)
            five[Item.uid] = 5
            five[Item.score] = 3
            try await context.save()
        }
        let next = results.latest
        #expect(next.generation == 1)
        #expect(next.sections.map(\.name) == ["", "1.0", "3.0"])
        #expect(next.difference.deletedSections == [2])
        #expect(next.difference.insertedSections == [2])
        #expect(next.difference.moved == [LiveMove(from: LivePosition(section: 2, item: 0), to: LivePosition(section: 1, item: 2))])
        #expect(next.difference.inserted == [LivePosition(section: 2, item: 0)])
        #expect(replay(next.difference, on: first, giving: next) == rowIDsBySection(next))
    }

    @Test(arguments: TestStore.all) func aLimitKeepsItsWindowFullAsRowsComeAndGo(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...30, in: container)
        let context = container.newBackgroundContext()
        let request = FetchRequest(Item.self, sortedBy: [.descending(Item.uid)], limit: 5)
        let results = try await context.liveResults(for: request)
        #expect(results.latest.rows.map { $0[Item.uid] } == [30, 29, 28, 27, 26])
        var previous = results.latest

        // A row leaves the full window: the next one comes in, read with the window.
        try await context.perform { context in
            try context.delete(try #require(try context.fetch(FetchRequest(Item.self, predicate: try FetchPredicate("uid == 28"))).first))
            try await context.save()
        }
        var next = results.latest
        #expect(next.rows.map { $0[Item.uid] } == [30, 29, 27, 26, 25])
        #expect(next.rowsRead == 5, "the window, not the table")
        #expect(replay(next.difference, on: previous, giving: next) == rowIDsBySection(next))
        previous = next

        // A new first row pushes the last one out, reading only itself.
        try await context.perform { context in
            context.insert(Item.self)[Item.uid] = 31
            try await context.save()
        }
        next = results.latest
        #expect(next.rows.map { $0[Item.uid] } == [31, 30, 29, 27, 26])
        #expect(next.rowsRead == 1)
        #expect(next.difference.inserted == [LivePosition(section: 0, item: 0)])
        #expect(next.difference.deleted == [LivePosition(section: 0, item: 4)])
        #expect(replay(next.difference, on: previous, giving: next) == rowIDsBySection(next))
        try await expectFreshFetch(of: results, equals: next)
    }

    /// A save of many rows (an import's batch) enters a window through its first rows only; the rest, before and
    /// after the window's rows, in any order, end as a fresh fetch says.
    @Test(arguments: TestStore.all) func aBatchOfManyNewRowsEntersAWindowThroughItsFirstRows(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(stride(from: Int32(10), through: 300, by: 10), in: container)
        let context = container.newBackgroundContext()
        let results = try await context.liveResults(for: FetchRequest(Item.self, sortedBy: [.descending(Item.uid)], limit: 5))
        #expect(results.latest.rows.map { $0[Item.uid] } == [300, 290, 280, 270, 260])
        let previous = results.latest

        // 230 new rows, shuffled: three of them above the window's first, two between its rows, the rest below.
        try await context.perform { context in
            try context.delete(try #require(try context.fetch(FetchRequest(Item.self, predicate: try FetchPredicate("uid == 290"))).first))
            for uid in ([301, 305, 399, 285, 265] + (1...249).filter { $0 % 10 != 0 }).shuffled() {
                context.insert(Item.self)[Item.uid] = Int32(uid)
            }
            try await context.save()
        }
        let next = results.latest
        #expect(next.rows.map { $0[Item.uid] } == [399, 305, 301, 300, 285])
        #expect(next.difference.inserted == [LivePosition(section: 0, item: 0), LivePosition(section: 0, item: 1),
                                             LivePosition(section: 0, item: 2), LivePosition(section: 0, item: 4)])
        #expect(replay(next.difference, on: previous, giving: next) == rowIDsBySection(next))
        try await expectFreshFetch(of: results, equals: next)
    }

    /// An import's batch merged into the view context (on the main actor) reads only the rows that can enter the
    /// window, not the thousand it saved: the store runs the request over the changed rows. Members that changed
    /// leave, move or stay as a fresh fetch says, and new rows the predicate leaves out never enter.
    @Test(arguments: TestStore.all) func aBatchReadsOnlyTheRowsThatCanEnterTheWindow(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await container.performBackgroundTask { context in
            for uid in Int32(1)...40 {
                let item = context.insert(Item.self)
                item[Item.uid] = uid
                item[Item.title] = "item \(uid)"
                item[Item.score] = Double(uid % 4)
            }
            try await context.save()
        }
        let view = container.viewContext
        await view.setAutomaticallyMergesChangesFromParent(true)
        let request = FetchRequest(Item.self, predicate: try FetchPredicate("title != 'hidden'"),
                                   sortedBy: [.descending(Item.score), .ascending(Item.title)], limit: 10)
        let results = try await view.liveResults(for: request)
        let previous = results.latest
        #expect(previous.rows.map { $0[Item.uid] } == [11, 15, 19, 23, 27, 3, 31, 35, 39, 7])

        let changeSet = try await container.performBackgroundTask { context in
            try item("item 11", in: context)[Item.title] = "hidden"   // a member the predicate now leaves out
            try item("item 3", in: context)[Item.score] = 0           // a member that falls behind the window
            try item("item 2", in: context)[Item.score] = 7           // a row that climbs above every other
            for uid in Int32(1_000)..<2_000 {
                let new = context.insert(Item.self)
                new[Item.uid] = uid
                new[Item.title] = uid % 3 == 0 ? "hidden" : "new \(uid)"
                new[Item.score] = Double(uid % 7)
            }
            return try #require(try await context.save())
        }
        await container.waitUntilMerged(changeSet)
        let next = results.latest
        #expect(next.rowsRead == 10, "the window's limit of candidates, not the 1,003 changed rows")
        #expect(next.rows.first?[Item.uid] == 2)
        #expect(!next.rows.contains { $0[Item.title] == "hidden" })
        #expect(replay(next.difference, on: previous, giving: next) == rowIDsBySection(next))
        try await expectFreshFetch(of: results, equals: next)
    }

    /// A change set of more scattered rows than one statement takes is read in several statements, each with the
    /// window's limit; the first `limit` of them all enter.
    @Test(arguments: TestStore.all) func aChangeOfManyScatteredRowsIsReadInSeveralStatements(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...3_000, in: container)
        let context = container.newBackgroundContext()
        let request = FetchRequest(Item.self, sortedBy: [.descending(Item.score), .ascending(Item.uid)], limit: 10)
        let results = try await context.liveResults(for: request)
        let previous = results.latest
        #expect(previous.rows.map { $0[Item.uid] } == Array(1...10))

        // Every other row gets a score: 1,500 ids without a run among them.
        try await context.perform { context in
            for item in try context.fetch(FetchRequest(Item.self)) where item[Item.uid] % 2 == 1 {
                item[Item.score] = Double(item[Item.uid] % 10)
            }
            try await context.save()
        }
        let next = results.latest
        #expect(next.rowsRead == 20, "two statements, the window's limit each")
        #expect(next.rows.map { $0[Item.uid] } == [9, 19, 29, 39, 49, 59, 69, 79, 89, 99])
        #expect(replay(next.difference, on: previous, giving: next) == rowIDsBySection(next))
        try await expectFreshFetch(of: results, equals: next)
    }

    @Test(arguments: TestStore.all) func aBatchDeleteElsewhereReachesTheResultsWithoutReads(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...100, in: container)
        let context = container.newBackgroundContext()
        await context.setAutomaticallyMergesChangesFromParent(true)
        let results = try await context.liveResults(for: FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)]))
        let first = results.latest
        let result = try await container.newBackgroundContext().batchDelete(
            FetchRequest(Item.self, predicate: try FetchPredicate("uid <= 50 OR uid == 75")))
        await container.waitUntilMerged(try #require(result.changeSet))
        let next = results.latest
        #expect(next.count == 49)
        #expect(next.difference.deleted.count == 51)
        #expect(next.rowsRead == 0, "deleted rows need no read")
        #expect(replay(next.difference, on: first, giving: next) == rowIDsBySection(next))
        try await expectFreshFetch(of: results, equals: next)
    }

    @Test(arguments: TestStore.all) func aChangeOfOneRowReadsThatRowAlone(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...2_000, in: container)
        let view = container.viewContext
        await view.setAutomaticallyMergesChangesFromParent(true)
        let request = FetchRequest(Item.self, predicate: try FetchPredicate("uid > 10"), sortedBy: [.ascending(Item.title)])
        let results = try await view.liveResults(for: request)
        #expect(results.latest.count == 1_990)
        let changeSet = try await container.performBackgroundTask { context in
            let item = try #require(try context.fetch(FetchRequest(Item.self, predicate: try FetchPredicate("uid == 1500"))).first)
            item[Item.title] = "a first title"
            return try #require(try await context.save())
        }
        await container.waitUntilMerged(changeSet)
        let next = results.latest
        #expect(next.rowsRead == 1)
        #expect(next.difference.moved.count == 1 && next.difference.moved[0].to == LivePosition(section: 0, item: 0))
        #expect(next.difference.inserted.isEmpty && next.difference.deleted.isEmpty)

        // A change to a row the predicate leaves out reads it, and delivers nothing.
        let outside = try await container.performBackgroundTask { context in
            let item = try #require(try context.fetch(FetchRequest(Item.self, predicate: try FetchPredicate("uid == 3"))).first)
            item[Item.title] = "still left out"
            return try #require(try await context.save())
        }
        await container.waitUntilMerged(outside)
        #expect(results.latest.generation == next.generation)
    }

    @Test(arguments: TestStore.shareable) func changesFromAnotherContainerOnTheStoreArrive(store: TestStore) async throws {
        let location = try await store.makeLocation()
        let reporter = try makeContainer(at: location)
        try await insertItems(1...3, in: reporter)
        let watcher = reporter.observeOtherProcesses(every: .milliseconds(10))
        defer { watcher.cancel() }
        let context = reporter.newBackgroundContext()
        await context.setAutomaticallyMergesChangesFromParent(true)
        let results = try await context.liveResults(for: FetchRequest(Item.self, sortedBy: [.descending(Item.uid)], limit: 10))
        let importer = try makeContainer(at: location)
        try await insertItems(4...6, in: importer)
        try await importer.performBackgroundTask { context in
            let two = try #require(try context.fetch(FetchRequest(Item.self, predicate: try FetchPredicate("uid == 2"))).first)
            try context.delete(two)
            try await context.save()
        }
        let last = try await eventually { results.latest } until: { $0.rows.map { $0[Item.uid] } == [6, 5, 4, 3, 1] }
        #expect(last.rows.map { $0[Item.uid] } == [6, 5, 4, 3, 1])
        try await expectFreshFetch(of: results, equals: last)
    }

    @Test(arguments: TestStore.all) func underConcurrentWritersTheSnapshotsGoForwardAndEndAsAFreshFetch(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...200, in: container)
        let context = container.newBackgroundContext(name: "live")
        await context.setAutomaticallyMergesChangesFromParent(true)
        let request = FetchRequest(Item.self, predicate: try FetchPredicate("uid < 900"),
                                   sortedBy: [.ascending(Item.score), .descending(Item.title)])
        let results = try await context.liveResults(for: request, sectionedBy: "score")
        let collector = Task {
            var snapshots: [LiveSnapshot] = []
            for await snapshot in results { snapshots.append(snapshot) }
            return snapshots
        }
        let changeSets = try await withThrowingTaskGroup(of: [ChangeSet].self) { group in
            for writer in 0..<3 {
                group.addTask {
                    var generator = SeededGenerator(seed: UInt64(writer + 1))
                    var saved: [ChangeSet] = []
                    let background = container.newBackgroundContext(name: "writer \(writer)")
                    await background.setMergePolicy(.mergeByPropertyObjectTrump)
                    for round in 0..<12 {
                        let scores = (Double(Int.random(in: 0...3, using: &generator)), Double(Int.random(in: 0...3, using: &generator)))
                        let picks = (Int.random(in: 0..<40, using: &generator), Int.random(in: 0..<40, using: &generator))
                        let changeSet = try await background.perform { context -> ChangeSet? in
                            let item = context.insert(Item.self)
                            item[Item.uid] = Int32(writer == 0 ? 500 + round : 1_000 * writer + round)   // writer 0's match
                            item[Item.title] = "w\(writer) r\(round)"
                            item[Item.score] = scores.0
                            let some = try context.fetch(FetchRequest(Item.self, predicate: try FetchPredicate("uid <= 200"), limit: 40))
                            if some.indices.contains(picks.0) {
                                some[picks.0][Item.score] = scores.1
                                some[picks.0][Item.title] = "w\(writer) r\(round) moved"
                            }
                            if round % 4 == 3, some.indices.contains(picks.1), picks.1 != picks.0 { try context.delete(some[picks.1]) }
                            return try await context.save()
                        }
                        if let changeSet { saved.append(changeSet) }
                        if round == 6 {
                            let floor = Int32(10 * writer)
                            if let batch = try await background.batchDelete(
                                FetchRequest(Item.self, predicate: try FetchPredicate("uid > %@ AND uid <= %@", floor, floor + 5))).changeSet {
                                saved.append(batch)
                            }
                        }
                    }
                    return saved
                }
            }
            var all: [ChangeSet] = []
            for try await saved in group { all += saved }
            return all
        }
        for changeSet in changeSets { await container.waitUntilMerged(changeSet) }
        let last = results.latest
        try await expectFreshFetch(of: results, equals: last)
        await results.stop()
        let snapshots = await collector.value
        #expect(snapshots.count > 1)
        #expect(snapshots.last == last)
        #expect(snapshots.contains { !$0.difference.moved.isEmpty } && snapshots.contains { !$0.difference.deleted.isEmpty })
        #expect(snapshots.contains { !$0.difference.insertedSections.isEmpty || !$0.difference.deletedSections.isEmpty }
                || last.sections.count == 4)
        for (before, after) in zip(snapshots, snapshots.dropFirst()) {
            #expect(after.generation == before.generation + 1, "no snapshot skipped, none goes back")
            #expect(replay(after.difference, on: before, giving: after) == rowIDsBySection(after))
        }
    }

    @Test(arguments: TestStore.all) func aPredicateThroughARelationshipFollowsChangesToTheRelatedObjects(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: relationshipEntities)
        try await container.performBackgroundTask { context in
            var batches: [String: ManagedObject] = [:]
            for name in ["morning", "evening"] {
                let batch = context.insert(Batch.self)
                batch[Batch.name] = name
                batches[name] = batch
            }
            for (title, batch) in [("a", "morning"), ("b", "evening"), ("c", "morning"), ("d", "evening")] {
                let entry = context.insert(Entry.self)
                entry[Entry.title] = title
                try entry.set(Entry.batch, to: batches[batch])
            }
            try await context.save()
        }
        let context = container.newBackgroundContext()
        await context.setAutomaticallyMergesChangesFromParent(true)
        let request = FetchRequest(Entry.self, predicate: try FetchPredicate("batch.name == 'morning'"), sortedBy: [.ascending(Entry.title)])
        let results = try await context.liveResults(for: request)
        #expect(results.latest.rows.map { $0[Entry.title] } == ["a", "c"])

        // The related batch is renamed: the entries no change set names join the results.
        let renamed = try await container.performBackgroundTask { context in
            let evening = try #require(try context.fetch(FetchRequest(Batch.self, predicate: try FetchPredicate("name == 'evening'"))).first)
            evening[Batch.name] = "morning"
            return try #require(try await context.save())
        }
        await container.waitUntilMerged(renamed)
        var previous = results.latest
        #expect(previous.rows.map { $0[Entry.title] } == ["a", "b", "c", "d"])
        try await expectFreshFetch(of: results, equals: previous)

        // A change to an entry alone reads that entry alone.
        let retitled = try await container.performBackgroundTask { context in
            let entry = try #require(try context.fetch(FetchRequest(Entry.self, predicate: try FetchPredicate("title == 'a'"))).first)
            entry[Entry.title] = "e"
            return try #require(try await context.save())
        }
        await container.waitUntilMerged(retitled)
        let next = results.latest
        #expect(next.rows.map { $0[Entry.title] } == ["b", "c", "d", "e"])
        #expect(next.rowsRead == 1)
        #expect(replay(next.difference, on: previous, giving: next) == rowIDsBySection(next))
        previous = next
        try await expectFreshFetch(of: results, equals: next)
    }

    @Test(arguments: TestStore.all) func aSubqueryFollowsChangesToTheObjectsItCounts(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: relationshipEntities)
        try await container.performBackgroundTask { context in
            for name in ["morning", "evening"] {
                let batch = context.insert(Batch.self)
                batch[Batch.name] = name
                let entry = context.insert(Entry.self)
                entry[Entry.title] = name + " entry"
                entry[Entry.minutes] = 5
                try entry.set(Entry.batch, to: batch)
            }
            try await context.save()
        }
        let context = container.newBackgroundContext()
        await context.setAutomaticallyMergesChangesFromParent(true)
        let predicate = try FetchPredicate("SUBQUERY(entries, $e, $e.minutes > 10).@count >= 1")
        let results = try await context.liveResults(for: FetchRequest(Batch.self, predicate: predicate, sortedBy: [.ascending(Batch.name)]))
        #expect(results.latest.rows.isEmpty)

        // Only the entry changes, and its batch joins the results.
        let longer = try await container.performBackgroundTask { context in
            let entry = try #require(try context.fetch(FetchRequest(Entry.self, predicate: try FetchPredicate("title == 'evening entry'"))).first)
            entry[Entry.minutes] = 20
            return try #require(try await context.save())
        }
        await container.waitUntilMerged(longer)
        let next = results.latest
        #expect(next.rows.map { $0[Batch.name] } == ["evening"])
        try await expectFreshFetch(of: results, equals: next)
    }

    @Test func requestsLiveResultsCannotFollowAreRefused() async throws {
        let container = try await makeContainer(.sqliteMemory)
        let context = container.newBackgroundContext()
        var offset = FetchRequest(Item.self)
        offset.offset = 3
        await #expect(throws: LiveResultsError.offset) { try await context.liveResults(for: offset) }
        await #expect(throws: LiveResultsError.sectionKeyNotFirstSortKey(sectionKey: "score")) {
            try await context.liveResults(for: FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)]), sectionedBy: "score")
        }
        let child = await context.newChildContext(name: "child")
        await #expect(throws: LiveResultsError.childContext("child")) { try await child.liveResults(for: FetchRequest(Item.self)) }
    }

    @Test func stoppingEndsEverySequenceAndLeavesTheContextUnobserved() async throws {
        let container = try await makeContainer(.sqliteMemory)
        try await insertItems(1...3, in: container)
        let context = container.newBackgroundContext()
        let results = try await context.liveResults(for: FetchRequest(Item.self))
        let loop = Task {
            var count = 0
            for await _ in results.snapshots { count += 1 }
            return count
        }
        #expect(await context.perform { !$0.graph.changeObservers.isEmpty })
        await results.stop()
        #expect(await loop.value == 1)
        #expect(await context.perform { $0.graph.changeObservers.isEmpty })

        // Results nobody holds any more stop by themselves.
        _ = try await context.liveResults(for: FetchRequest(Item.self))
        let unobserved = try await eventually { await context.perform { $0.graph.changeObservers.isEmpty } } until: { $0 }
        #expect(unobserved)
    }
}

/// The item titled `title`.
private func item(_ title: String, in context: isolated ObjectContext) throws -> ManagedObject {
    try #require(try context.fetch(FetchRequest(Item.self, predicate: try FetchPredicate("title == %@", title))).first)
}

/// The row ids of each section of `snapshot`.
func rowIDsBySection(_ snapshot: LiveSnapshot) -> [[Int64]] {
    snapshot.sections.map { snapshot.rows(in: $0).map(\.rowID) }
}

/// The row ids of each section after applying `difference` to `old` as a table view applies batch updates, or
/// `nil` when a position is out of range; the inserted rows are taken from `new`.
func replay(_ difference: LiveDifference, on old: LiveSnapshot, giving new: LiveSnapshot) -> [[Int64]]? {
    var sections = rowIDsBySection(old)
    for position in (difference.deleted + difference.moved.map(\.from)).sorted(by: >) {
        guard sections.indices.contains(position.section), sections[position.section].indices.contains(position.item) else { return nil }
        sections[position.section].remove(at: position.item)
    }
    for section in difference.deletedSections.sorted(by: >) {
        guard sections.indices.contains(section), sections[section].isEmpty else { return nil }
        sections.remove(at: section)
    }
    for section in difference.insertedSections.sorted() {
        guard section <= sections.count else { return nil }
        sections.insert([], at: section)
    }
    for position in (difference.inserted + difference.moved.map(\.to)).sorted() {
        guard sections.indices.contains(position.section), position.item <= sections[position.section].count else { return nil }
        sections[position.section].insert(new[position].rowID, at: position.item)
    }
    // An updated row is one the earlier snapshot had, with other values.
    let oldRows = Dictionary(uniqueKeysWithValues: old.rows.map { ($0.rowID, $0) })
    for position in difference.updated where oldRows[new[position].rowID] == new[position] || oldRows[new[position].rowID] == nil {
        return nil
    }
    return sections
}

/// Expects the results' snapshot to hold what a fetch of their request in their context returns now.
func expectFreshFetch(of results: LiveResults, equals snapshot: LiveSnapshot) async throws {
    let request = results.request
    let fetched = try await results.context.perform { context in
        try context.fetch(request).map { object in [AttributeValue.string(object.objectID.description)] + object.values }
    }
    #expect(snapshot.rows.map { [AttributeValue.string($0.objectID.description)] + $0.values } == fetched)
}

/// A deterministic random number generator (SplitMix64), so that a failing run can be repeated.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
