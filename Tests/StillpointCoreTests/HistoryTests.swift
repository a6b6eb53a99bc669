import Foundation
import GRDB
import Testing
@testable import StillpointCore
@testable import StillpointSQLite

@Suite("Change log and snapshots")
struct HistoryTests {
    @Test func aSecondProcessesWritesAreCaughtUpFromTheChangeLog() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("store.sqlite")
        let reporter = try makeContainer(.file(url))
        try await insertItems(1...2, in: reporter)
        let reader = reporter.newBackgroundContext()
        let held = try await reader.perform { try $0.fetch(FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)])).map(\.objectID) }
        let token = try reporter.currentHistoryToken()

        // Another process: a container of its own on the same file, with connections of its own.
        let importer = try makeContainer(.file(url))
        try await importer.performBackgroundTask { context in
            let items = try context.fetch(FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)]))
            items[0][Item.title] = "changed by the importer"
            try context.delete(items[1])
            context.insert(Item.self)[Item.uid] = 3
            try await context.save()
        }

        let history = try reporter.history(after: token)
        #expect(history.count == 1)
        #expect(history[0].updated == [held[0]] && history[0].deleted == [held[1]] && history[0].inserted.count == 1)
        let (newToken, title, secondIsDeleted) = try await reader.perform { context in
            let items = held.map { context.registeredObject(for: $0) }
            let newToken = try context.mergeHistory(after: token)
            return (newToken, items[0]?[Item.title], items[1]?.isDeleted)
        }
        #expect(newToken.sequence == history[0].sequence)
        #expect(title == "changed by the importer")
        #expect(secondIsDeleted == true)

        try reporter.purgeHistory(through: newToken)
        #expect(try reporter.history(after: newToken).isEmpty)
    }

    @Test func aPurgedHistoryRefusesOlderTokensAndNeverReusesNumbers() async throws {
        try await eachLocation { location in
            let container = try makeContainer(location)
            let start = try container.currentHistoryToken()
            for uid: Int32 in 1...3 { try await insertItems([uid], in: container) }
            let saved = try container.history(after: start).map { HistoryToken(sequence: $0.sequence) }
            #expect(saved.count == 3)

            try container.purgeHistory(through: saved[1])
            #expect(try container.history(after: saved[1]).map(\.sequence) == [saved[2].sequence])
            let refused = #expect(throws: StoreError.self) { try container.history(after: start) }
            guard case .historyPurged(_, let token, let purgedThrough)? = refused else {
                Issue.record("expected historyPurged, got \(String(describing: refused))")
                return
            }
            #expect(token == start && purgedThrough == saved[1])
            #expect(refused?.description.contains("purged through \(saved[1].sequence)") == true)
            await #expect(throws: StoreError.self) {
                try await container.newBackgroundContext().perform { context in _ = try context.mergeHistory(after: start) }
            }

            // Purging everything, and past the end, keeps the numbering and the latest token usable.
            try container.purgeHistory(through: HistoryToken(sequence: saved[2].sequence + 100))
            #expect(try container.currentHistoryToken() == saved[2])
            try await insertItems([4], in: container)
            let next = try container.history(after: saved[2])
            #expect(next.count == 1 && next[0].sequence > saved[2].sequence)
        }
    }

    /// A store whose history was purged before the purge point was recorded gets it from what its history shows.
    @Test func aStorePurgedByAnEarlierVersionRefusesOlderTokens() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("store.sqlite")
        let container = try makeContainer(.file(url))
        for uid: Int32 in 1...3 { try await insertItems([uid], in: container) }
        let saved = try container.history(after: HistoryToken(sequence: 0)).map(\.sequence)
        try container.close()
        try await DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "DELETE FROM \(ChangeLog.table) WHERE sequence <= ?; DROP TABLE \(ChangeLog.purgeTable)", arguments: [saved[1]])
        }
        let reopened = try makeContainer(.file(url))
        #expect(throws: StoreError.self) { try reopened.history(after: HistoryToken(sequence: 0)) }
        #expect(try reopened.history(after: HistoryToken(sequence: saved[1])).map(\.sequence) == [saved[2]])
    }

    @Test func aDamagedEntryIsReportedNotSkipped() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("store.sqlite")
        let container = try makeContainer(.file(url))
        let start = try container.currentHistoryToken()
        try await insertItems([1], in: container)
        try await insertItems([2], in: container)
        let damaged = try container.history(after: start)[0].sequence
        try await DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "UPDATE \(ChangeLog.table) SET changes = '{not json' WHERE sequence = ?", arguments: [damaged])
        }
        let error = #expect(throws: StoreError.self) { try container.history(after: start) }
        guard case .corrupt(let path, let detail)? = error else {
            Issue.record("expected corrupt, got \(String(describing: error))")
            return
        }
        #expect(path == url.path && detail.contains("entry \(damaged)"))
        #expect(try container.history(after: HistoryToken(sequence: damaged)).count == 1, "the entries after it still read")
    }

    @Test func observingOtherProcessesFeedsAutomaticMerges() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("store.sqlite")
        let reporter = try makeContainer(.file(url))
        try await insertItems([1], in: reporter)
        let watcher = reporter.observeOtherProcesses(every: .milliseconds(10))
        defer { watcher.cancel() }
        let reader = reporter.newBackgroundContext()
        await reader.setAutomaticallyMergesChangesFromParent(true)
        let id = try await reader.perform { try $0.fetch(FetchRequest(Item.self))[0].objectID }
        let importer = try makeContainer(.file(url))
        _ = try await importer.performBackgroundTask { context in
            try context.existingObject(with: id)[Item.title] = "from the other process"
            try await context.save()
        }
        let title = try await eventually {
            await reader.perform { context in context.registeredObject(for: id)?[Item.title] }
        } until: { $0 == "from the other process" }
        #expect(title == "from the other process")
    }

    @Test func aPinnedSnapshotNeverSeesHalfOfAConcurrentWrite() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let container = try makeContainer(.file(directory.appendingPathComponent("store.sqlite")))
        try await insertItems(1...10, in: container)
        let store = try container.sqliteStore
        let counts = try await container.newBackgroundContext().perform { context in
            try context.withPinnedSnapshot {
                let before = try context.count(for: FetchRequest(Item.self))
                // Another connection commits while the snapshot is pinned.
                try store.write { db in try db.execute(sql: "DELETE FROM Item WHERE uid <= 5") }
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
