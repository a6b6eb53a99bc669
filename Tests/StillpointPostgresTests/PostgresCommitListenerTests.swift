import Foundation
@testable import StillpointCore
@testable import StillpointSQLite
@testable import StillpointPostgres
import StillpointPostgresTestSupport
import Testing

/// Other processes' commits ring the store's doorbell (`NOTIFY`) at once, with no polling; an entry held back
/// by a transaction still running rings again once that transaction ends, and is then read, never skipped.
@Suite("PostgreSQL's doorbell", .enabled(if: PostgresTestServer.isWanted))
struct PostgresCommitListenerTests {
    /// What a stream has delivered so far, read while it keeps going.
    final class Arrivals<Element: Sendable>: Sendable {
        private let received = LockedState<[Element]>([])
        private let task: LockedState<Task<Void, Never>?> = LockedState(nil)

        init(_ stream: AsyncStream<Element>) {
            let received = self.received
            task.withLock { $0 = Task { for await element in stream { received.withLock { $0.append(element) } } } }
        }

        deinit { task.withLock { $0 }?.cancel() }

        var all: [Element] { received.withLock { $0 } }

        /// Waits up to `limit` until at least `count` elements came; returns whether they did.
        func wait(for count: Int, within limit: Duration) async -> Bool {
            let deadline = ContinuousClock.now + limit
            while all.count < count, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
            return all.count >= count
        }
    }

    private func insertPractice(uid: Int64, into container: PersistentContainer) async throws {
        try await container.performBackgroundTask { context in
            let practice = context.insert(Practice.self)
            practice[Practice.uid] = uid
            try await context.save()
        }
    }

    @Test func aSaveInAnotherProcessRingsWithoutPolling() async throws {
        let uri = try PostgresTestServer.shared().makeDatabase("doorbell")
        let schema = try Schema([Practice.self])
        let watcher = try PostgresStore(uri: uri, schema: schema)
        // An hour between checks: only the doorbell can bring the signal in time.
        let signals = Arrivals(watcher.otherProcessCommits(every: .seconds(3600)))
        #expect(await signals.wait(for: 1, within: .seconds(60)), "the first signal catches up with what came before")
        try await Task.sleep(for: .milliseconds(200))
        let before = signals.all.count

        let other = try PersistentContainer(schema: schema, postgres: uri)
        try await insertPractice(uid: 1, into: other)
        #expect(await signals.wait(for: before + 1, within: .seconds(60)), "no signal after another process's save")
    }

    @Test func anEntryHeldBackByARunningTransactionIsReadOnceItEnds() async throws {
        let uri = try PostgresTestServer.shared().makeDatabase("heldback")
        let schema = try Schema([Practice.self])
        let watcher = try PersistentContainer(schema: schema, postgres: uri)
        let received = Arrivals(watcher.changeSets)
        let watch = watcher.observeOtherProcesses(every: .milliseconds(100))
        defer { watch.cancel() }

        // A transaction that began earlier (it holds a transaction id) and is still running.
        let blocker = try PostgresConnection(uri: uri)
        try blocker.execute("BEGIN")
        try blocker.execute("SELECT pg_current_xact_id()")

        let reader = try PersistentContainer(schema: schema, postgres: uri)
        let token = try reader.currentHistoryToken()
        let other = try PersistentContainer(schema: schema, postgres: uri)
        try await insertPractice(uid: 7, into: other)
        // The entry is held back while the earlier transaction runs...
        try await Task.sleep(for: .milliseconds(300))
        #expect(try reader.history(after: token).isEmpty)
        #expect(received.all.isEmpty)

        // ...and comes, once, when it ends.
        try blocker.execute("COMMIT")
        #expect(await received.wait(for: 1, within: .seconds(60)), "the held-back save never reached the watcher")
        #expect(received.all.map(\.inserted.count) == [1])
        let history = try reader.history(after: token)
        #expect(history.map(\.inserted.count) == [1])
        #expect(try reader.history(after: history.token).isEmpty)
    }

    /// The same when the save came before the watcher began to listen (its doorbell rang for no one): the first
    /// read finds the entry held back, and the listener still rings once the earlier transaction ends.
    @Test func anEntryHeldBackBeforeTheWatcherListenedIsReadOnceItEnds() async throws {
        let uri = try PostgresTestServer.shared().makeDatabase("heldbefore")
        let schema = try Schema([Practice.self])
        let watcher = try PersistentContainer(schema: schema, postgres: uri)
        let token = try watcher.currentHistoryToken()
        let blocker = try PostgresConnection(uri: uri)
        try blocker.execute("BEGIN")
        try blocker.execute("SELECT pg_current_xact_id()")
        let other = try PersistentContainer(schema: schema, postgres: uri)
        try await insertPractice(uid: 8, into: other)

        let received = Arrivals(watcher.changeSets)
        let watch = watcher.observeOtherProcesses(every: .milliseconds(100))
        defer { watch.cancel() }
        try await Task.sleep(for: .milliseconds(500))
        #expect(received.all.isEmpty, "held back while the earlier transaction runs")
        try blocker.execute("COMMIT")
        #expect(await received.wait(for: 1, within: .seconds(60)), "the held-back save never reached the watcher")
        #expect(try watcher.history(after: token).map(\.inserted.count) == [1])
    }
}
