import Foundation
import GRDB
import Testing
@testable import StillpointCore
@testable import StillpointSQLite

@Suite("Change log and snapshots")
struct HistoryTests {
    @Test(arguments: TestStore.shareable)
    func aSecondProcessesWritesAreCaughtUpFromTheChangeLog(store: TestStore) async throws {
        let location = try await store.makeLocation()
        let reporter = try makeContainer(at: location)
        let initial = try reporter.currentHistoryToken()
        try await insertItems(1...2, in: reporter)
        let reader = reporter.newBackgroundContext()
        let held = try await reader.perform { try $0.fetch(FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)])).map(\.objectID) }
        // Past the inserts (PostgreSQL's current token may still sit below them while another transaction runs).
        let token = try await reporter.history(after: initial, reaching: 1).token

        // Another process: a container of its own on the same store, with connections of its own.
        let importer = try makeContainer(at: location)
        try await importer.performBackgroundTask { context in
            let items = try context.fetch(FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)]))
            items[0][Item.title] = "changed by the importer"
            try context.delete(items[1])
            context.insert(Item.self)[Item.uid] = 3
            try await context.save()
        }

        let history = try await reporter.history(after: token, reaching: 1)
        #expect(history.count == 1)
        #expect(history[0].updated == [held[0]] && history[0].deleted == [held[1]] && history[0].inserted.count == 1)
        let (newToken, title, secondIsDeleted) = try await reader.perform { context in
            let items = held.map { context.registeredObject(for: $0) }
            let newToken = try context.mergeHistory(after: token)
            return (newToken, items[0]?[Item.title], items[1]?.isDeleted)
        }
        if store.isSQLite {
            // SQLite's token is the last change set's number (PostgreSQL's is a watermark of the server's transactions).
            #expect(newToken.sequence == history[0].sequence)
        }
        #expect(title == "changed by the importer")
        #expect(secondIsDeleted == true)
        #expect(try reporter.history(after: newToken).isEmpty)

        try reporter.purgeHistory(through: newToken)
        #expect(try reporter.history(after: newToken).isEmpty)
    }

    @Test(arguments: TestStore.all)
    func aPurgedHistoryRefusesOlderTokensAndNeverReusesNumbers(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let start = try container.currentHistoryToken()
        var tokens: [HistoryToken] = [], sequences: [Int64] = []
        for uid: Int32 in 1...3 {
            try await insertItems([uid], in: container)
            let history = try await container.history(after: tokens.last ?? start, reaching: 1)
            #expect(history.count == 1)
            tokens.append(history.token)
            sequences += history.map(\.sequence)
        }
        try #require(sequences.count == 3)

        try container.purgeHistory(through: tokens[1])
        #expect(try container.history(after: tokens[1]).map(\.sequence) == [sequences[2]])
        let refused = #expect(throws: StoreError.self) { try container.history(after: start) }
        guard case .historyPurged(_, let token, let purgedThrough)? = refused else {
            Issue.record("expected historyPurged, got \(String(describing: refused))")
            return
        }
        #expect(token == start && purgedThrough == tokens[1])
        #expect(refused?.description.contains("purged through \(tokens[1].sequence)") == true)
        await #expect(throws: StoreError.self) {
            try await container.newBackgroundContext().perform { context in _ = try context.mergeHistory(after: start) }
        }

        // Purging everything keeps the latest token usable, and numbers are never handed out again.
        if store.isSQLite {
            // A SQLite token is the last change's number: a purge past the end keeps the numbering.
            try container.purgeHistory(through: HistoryToken(sequence: sequences[2] + 100))
            #expect(try container.currentHistoryToken() == tokens[2])
        } else {
            try container.purgeHistory(through: tokens[2])
        }
        try await insertItems([4], in: container)
        let next = try await container.history(after: tokens[2], reaching: 1)
        #expect(next.count == 1 && next[0].sequence > sequences[2])
    }

    /// A store whose history was purged before the purge point was recorded gets it from what its history shows.
    @Test func aStorePurgedByAnEarlierVersionRefusesOlderTokens() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("store.sqlite")
        let container = try makeContainer(at: .file(url))
        for uid: Int32 in 1...3 { try await insertItems([uid], in: container) }
        let saved = try container.history(after: HistoryToken(sequence: 0)).map(\.sequence)
        try container.close()
        try await DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "DELETE FROM \(ChangeLog.table) WHERE sequence <= ?; DROP TABLE \(ChangeLog.purgeTable)", arguments: [saved[1]])
        }
        let reopened = try makeContainer(at: .file(url))
        #expect(throws: StoreError.self) { try reopened.history(after: HistoryToken(sequence: 0)) }
        #expect(try reopened.history(after: HistoryToken(sequence: saved[1])).map(\.sequence) == [saved[2]])
    }

    @Test(arguments: TestStore.all)
    func aDamagedEntryIsReportedNotSkipped(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let start = try container.currentHistoryToken()
        try await insertItems([1], in: container)
        try await insertItems([2], in: container)
        let saved = try await container.history(after: start, reaching: 2)
        try #require(saved.count == 2)
        let damaged = saved[0].sequence
        try container.executeSQL("UPDATE \(container.changeLogTable) SET changes = '{not json' WHERE sequence = \(damaged)")
        let error = #expect(throws: StoreError.self) { try container.history(after: start) }
        guard case .corrupt(let path, let detail)? = error else {
            Issue.record("expected corrupt, got \(String(describing: error))")
            return
        }
        #expect(path == container.store.location.displayPath && detail.contains("entry \(damaged)"))
        if store.isSQLite {
            // A SQLite token can name the damaged entry's number (a PostgreSQL one is a transaction watermark).
            #expect(try container.history(after: HistoryToken(sequence: damaged)).count == 1, "the entries after it still read")
        }
    }

    @Test(arguments: TestStore.shareable)
    func observingOtherProcessesFeedsAutomaticMerges(store: TestStore) async throws {
        let location = try await store.makeLocation()
        let reporter = try makeContainer(at: location)
        try await insertItems([1], in: reporter)
        let watcher = reporter.observeOtherProcesses(every: .milliseconds(10))
        defer { watcher.cancel() }
        let reader = reporter.newBackgroundContext()
        await reader.setAutomaticallyMergesChangesFromParent(true)
        let id = try await reader.perform { try $0.fetch(FetchRequest(Item.self))[0].objectID }
        let importer = try makeContainer(at: location)
        _ = try await importer.performBackgroundTask { context in
            try context.existingObject(with: id)[Item.title] = "from the other process"
            try await context.save()
        }
        let title = try await eventually {
            await reader.perform { context in context.registeredObject(for: id)?[Item.title] }
        } until: { $0 == "from the other process" }
        #expect(title == "from the other process")
    }

    /// Not SQLite in memory: its one connection is the snapshot's.
    @Test(arguments: TestStore.shareable)
    func aPinnedSnapshotNeverSeesHalfOfAConcurrentWrite(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...10, in: container)
        let counts = try await container.newBackgroundContext().perform { context in
            try context.withPinnedSnapshot {
                let before = try context.count(for: FetchRequest(Item.self))
                // Another connection commits while the snapshot is pinned.
                try container.executeSQL(#"DELETE FROM "Item" WHERE "uid" <= 5"#)
                var totals = FetchRequest(Item.self)
                totals.properties = [.count(as: "n")]
                let after = try context.fetchDictionaries(totals)[0]["n"]
                return (before, after)
            }
        }
        #expect(counts.0 == 10 && counts.1 == .integer(10))
        let now = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Item.self)) }
        #expect(now == 5)
    }
}
