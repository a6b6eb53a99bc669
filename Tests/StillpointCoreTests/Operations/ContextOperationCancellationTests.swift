import Foundation
import StillpointPostgres
import Synchronization
import Testing
@testable import StillpointCore
@testable import StillpointSQLite

@Suite("ContextOperation cancellation")
struct ContextOperationCancellationTests {
    @Test(arguments: TestStore.all) func anOperationCancelledBeforeItStartsNeverRuns(store: TestStore) async throws {
        let queue = ContextOperationQueue(container: try await makeContainer(store))
        var events = queue.events.makeAsyncIterator()
        let ran = Recorder<String>()
        queue.suspend()
        let waiting = queue.addOperation(identifier: "waiting") { _, _ in ran.append("waiting") }
        waiting.cancel()
        // Reported at once, suspended queue or not.
        let trace = await readEvents(&events, untilEnded: 1).map(\.trace)
        #expect(trace == ["waiting enqueued", "waiting cancelled"])

        let early = ContextOperation<Void>(identifier: "early") { _, _ in ran.append("early") }
        early.cancel()
        queue.addOperation(early)
        queue.resume()
        await queue.waitUntilAllOperationsAreFinished()
        #expect(ran.all.isEmpty)
        guard case .cancelled(.requested)? = early.outcome, case .cancelled(.requested)? = waiting.outcome else {
            Issue.record("expected both cancelled on request")
            return
        }
        await #expect(throws: ContextOperationError.self) { try await early.value }
    }

    @Test(arguments: TestStore.all) func aRunningOperationStopsAtItsNextCheckAndItsUnsavedWorkIsRolledBack(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let context = container.newBackgroundContext()
        let queue = ContextOperationQueue(container: container)
        var events = queue.events.makeAsyncIterator()
        let checks = Recorder<Int>()
        let loop = ContextOperation<Void>(identifier: "loop", context: context) { context, operation in
            context.insert(Item.self)[Item.uid] = 1
            operation.reportProgress(completed: 0, of: nil, message: "looping")
            // Only a cancellation ends this loop.
            for check in 1... {
                checks.append(check)
                try operation.checkCancellation()
                await Task.yield()
            }
        }
        queue.addOperation(loop)
        _ = await readEvents(&events) { $0.kindName == "progress" }
        #expect(loop.isExecuting)
        loop.cancel()
        let end = try #require(await readEvents(&events, until: \.isEnd))
        guard case .requested? = end.cancellationReason else {
            Issue.record("expected cancelled, got \(end)")
            return
        }
        #expect(!checks.all.isEmpty)
        let (hasChanges, count) = try await context.perform { ($0.hasChanges, try $0.count(for: FetchRequest(Item.self))) }
        #expect(!hasChanges)
        #expect(count == 0)
    }

    @Test(arguments: TestStore.all) func cancellingInterruptsARunningStatement(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let context = container.newBackgroundContext()
        let queue = ContextOperationQueue(container: container)
        var events = queue.events.makeAsyncIterator()
        let scan = ContextOperation<Int>(identifier: "scan", context: context) { context, operation in
            context.insert(Item.self)[Item.uid] = 1
            operation.reportProgress(completed: 0, of: nil, message: "scanning")
            // A statement that never ends unless the store interrupts it (SQLite's progress handler, PQcancel).
            var rows = 0
            try context.graph.withReader { reader in
                if let connection = reader as? SQLiteStoreConnection {
                    try connection.db.query("WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n) SELECT COUNT(*) FROM n") { _ in rows += 1 }
                } else {
                    rows = try #require(reader as? PostgresStoreConnection).connection.execute("SELECT pg_sleep(3600)").rowCount
                }
            }
            return rows
        }
        queue.addOperation(scan)
        _ = await readEvents(&events) { $0.kindName == "progress" }
        try await Task.sleep(for: .milliseconds(50))  // not needed for correctness: lets the statement get going
        scan.cancel()
        // A liveness bound, not a speed check (the `cancel` benchmark measures that): the statement never ends
        // by itself, so ending at all means the store interrupted it.
        try #require(await ends(scan, within: .seconds(30)), "the statement was not interrupted")
        let end = try #require(await readEvents(&events, until: \.isEnd))
        #expect(end.kindName == "cancelled")
        // The context is usable again, without the unsaved insert.
        #expect(!context.isInterrupted)
        let (hasChanges, count) = try await context.perform { ($0.hasChanges, try $0.count(for: FetchRequest(Item.self))) }
        #expect(!hasChanges)
        #expect(count == 0)
    }

    @Test(arguments: TestStore.all) func cancellingStopsAnEnumerationOfManyRowsAfterTheBatchInHand(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try insertRows(300_000, in: container)
        let context = container.newBackgroundContext()
        let queue = ContextOperationQueue(container: container)
        var events = queue.events.makeAsyncIterator()
        let seen = Recorder<Int>()
        let gate = Gate()
        let walk = ContextOperation<Void>(identifier: "walk", context: context) { context, operation in
            context.insert(Item.self)[Item.uid] = 1
            var request = FetchRequest(Row3.self)
            request.batchSize = 1_000
            try context.enumerate(request) { batch in
                try operation.checkCancellation()
                seen.append(batch.count)
                if seen.all.count == 1 {
                    operation.reportProgress(completed: batch.count, of: 300_000)
                    gate.wait()  // the test cancels here, mid-cursor
                }
            }
        }
        queue.addOperation(walk)
        _ = await readEvents(&events) { $0.kindName == "progress" }
        walk.cancel()
        gate.open()
        let end = try #require(await readEvents(&events, until: \.isEnd))
        #expect(end.kindName == "cancelled")
        #expect(seen.all == [1_000])
        let (hasChanges, items) = try await context.perform { ($0.hasChanges, try $0.count(for: FetchRequest(Item.self))) }
        #expect(!hasChanges)
        #expect(items == 0)
    }

    @Test(arguments: TestStore.all) func cancelAllCancelsWaitingAndRunningOperations(store: TestStore) async throws {
        let queue = ContextOperationQueue(container: try await makeContainer(store), maxConcurrentOperationCount: 1)
        var events = queue.events.makeAsyncIterator()
        let ran = Recorder<String>()
        let first = queue.addOperation(identifier: "first") { _, operation in
            ran.append("first")
            operation.reportProgress(completed: 0, of: nil)
            while true {
                try operation.checkCancellation()
                await Task.yield()
            }
        }
        let second = queue.addOperation(identifier: "second") { _, _ in ran.append("second") }
        let third = queue.addOperation(identifier: "third") { _, _ in ran.append("third") }
        _ = await readEvents(&events) { $0.kindName == "progress" }
        queue.cancelAllOperations()
        await queue.waitUntilAllOperationsAreFinished()
        #expect(ran.all == ["first"])
        for operation in [first, second, third] {
            guard case .cancelled(.queueCancelled)? = operation.outcome else {
                Issue.record("\(operation.identifier): expected cancelled by the queue, got \(String(describing: operation.outcome))")
                continue
            }
        }
        #expect(queue.operationCount == 0)
    }

    @Test(arguments: TestStore.all) func cancellingAFinishedOperationChangesNothing(store: TestStore) async throws {
        let queue = ContextOperationQueue(container: try await makeContainer(store))
        let done = queue.addOperation(identifier: "done") { _, _ in 7 }
        #expect(try await done.value == 7)
        done.cancel()
        #expect(!done.isCancelled)
        #expect(try await done.value == 7)
    }
}
