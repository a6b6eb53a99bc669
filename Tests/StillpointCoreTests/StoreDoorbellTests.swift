import Foundation
import GRDB
@testable import StillpointCore
@testable import StillpointSQLite
import Testing

/// A SQLite store file's doorbell rings when another process commits (inotify), instead of waiting for a poll.
@Suite struct StoreDoorbellTests {
    /// Counts the signals of a stream as they come.
    final class Signals: Sendable {
        private let count = LockedState(0)
        private let task: Task<Void, Never>

        init(_ stream: AsyncStream<Void>) {
            let count = self.count
            task = Task { for await _ in stream { count.withLock { $0 += 1 } } }
        }

        deinit { task.cancel() }

        var received: Int { count.withLock { $0 } }

        /// Waits up to `limit` for more than `count` signals; returns how long they took, or `nil`.
        func waitForMore(than count: Int, within limit: Duration) async -> Duration? {
            let clock = ContinuousClock()
            let start = clock.now
            while received <= count, clock.now - start < limit { try? await Task.sleep(for: .milliseconds(1)) }
            return received > count ? clock.now - start : nil
        }
    }

    /// How long a test waits for a signal: an hour between polls means only the doorbell can bring one within it.
    /// Wide, because a sanitizer run on two busy cores can hold every task back for seconds.
    static let allowance = Duration.seconds(120)

    @Test func anotherProcessesCommitRingsWithoutPolling() async throws {
        let location = try await TestStore.sqliteFile.makeLocation()
        let watcher = try makeContainer(at: location)
        // An hour between polls: only the doorbell can bring the signal within the allowance.
        let signals = Signals(watcher.store.otherProcessCommits(every: .seconds(3600)))
        #expect(await signals.waitForMore(than: 0, within: Self.allowance) != nil, "the first signal catches up with what came before")
        let other = try makeContainer(at: location)
        try await Task.sleep(for: .milliseconds(200))
        for uid in Int32(1)...Int32(3) {
            let before = signals.received
            try await insertItems([uid], in: other)
            let took = await signals.waitForMore(than: before, within: Self.allowance)
            #expect(took != nil, "no signal after another process's commit \(uid)")
        }
    }

    @Test func anotherProcessesCommitReachesAutomaticMergesWithoutPolling() async throws {
        let location = try await TestStore.sqliteFile.makeLocation()
        let reporter = try makeContainer(at: location)
        try await insertItems([1], in: reporter)
        let watcher = reporter.observeOtherProcesses(every: .seconds(3600))
        defer { watcher.cancel() }
        let reader = reporter.newBackgroundContext()
        await reader.setAutomaticallyMergesChangesFromParent(true)
        let id = try await reader.perform { try $0.fetch(FetchRequest(Item.self))[0].objectID }
        try await Task.sleep(for: .milliseconds(200))
        let importer = try makeContainer(at: location)
        _ = try await importer.performBackgroundTask { context in
            try context.existingObject(with: id)[Item.title] = "from the other process"
            try await context.save()
        }
        let deadline = ContinuousClock.now + Self.allowance
        var title: String?
        while title != "from the other process", ContinuousClock.now < deadline {
            title = await reader.perform { context in context.registeredObject(for: id)?[Item.title] }
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(title == "from the other process")
    }

    /// A commit rings the doorbell beside the store, which is how the watchers learn of it.
    @Test func aCommitRingsTheDoorbellBesideTheStore() async throws {
        let location = try await TestStore.sqliteFile.makeLocation()
        let url = try #require(location.fileURL)
        let container = try makeContainer(at: location)
        let rings = try #require(StoreDoorbell.rings(for: url))
        let signals = Signals(rings)
        try await Task.sleep(for: .milliseconds(100))
        try await insertItems([1], in: container)
        #expect(await signals.waitForMore(than: 0, within: Self.allowance) != nil)
        #expect(FileManager.default.fileExists(atPath: StoreDoorbell.url(for: url).path))
    }

    @Test func aFolderInotifyCannotWatchHasNoDoorbell() {
        #expect(StoreDoorbell.rings(for: URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/store.sqlite")) == nil)
    }
}
