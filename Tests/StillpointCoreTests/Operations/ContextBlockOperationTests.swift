import Foundation
import Testing
@testable import StillpointCore

@Suite("ContextBlockOperation")
struct ContextBlockOperationTests {
    @Test(arguments: TestStore.all) func blocksRunInOrderInOneContextAndSaveWhenTheySaySo(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let queue = ContextOperationQueue(container: container)
        let seen = Recorder<String>()
        let operation = ContextBlockOperation(identifier: "blocks", saveAfterExecution: false)
        operation.addExecutionBlock { context in
            context.insert(Item.self)[Item.uid] = 1
            seen.append("first: \(context.name)")
            return true  // save now
        }
        operation.addExecutionBlock { context in
            // The store has the first block's item: another context sees it.
            let stored = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Item.self)) }
            seen.append("second: \(context.name) sees \(stored)")
            context.insert(Item.self)[Item.uid] = 2
            return false
        }
        operation.addExecutionBlock { context in
            // The same context: the second block's unsaved insert is here.
            seen.append("third: \(context.name) has \(context.insertedObjects.count) unsaved")
            return false
        }
        #expect(operation.executionBlocks.count == 3)
        queue.addOperation(operation)
        try await operation.value
        let name = try #require(seen.all.first?.split(separator: " ").last).description
        #expect(seen.all == ["first: \(name)", "second: \(name) sees 1", "third: \(name) has 1 unsaved"])
        // saveAfterExecution is off: the second item was never saved.
        let stored = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Item.self)) }
        #expect(stored == 1)
        #expect(operation.progress.completedUnitCount == 3)
    }

    @Test(arguments: TestStore.all) func saveAfterExecutionSavesAtTheEnd(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let queue = ContextOperationQueue(container: container)
        let operation = ContextBlockOperation(blocks: [
            { context in context.insert(Item.self)[Item.uid] = 1; return false },
            { context in context.insert(Item.self)[Item.uid] = 2; return false },
        ])
        #expect(operation.saveAfterExecution)
        queue.addOperation(operation)
        try await operation.value
        let stored = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Item.self)) }
        #expect(stored == 2)
    }

    @Test(arguments: TestStore.all) func cancellingStopsBeforeTheNextBlockAndKeepsWhatWasSaved(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let queue = ContextOperationQueue(container: container)
        var events = queue.events.makeAsyncIterator()
        let ran = Recorder<Int>()
        let operation = ContextBlockOperation(identifier: "blocks")
        operation.addExecutionBlock { context in
            ran.append(1)
            context.insert(Item.self)[Item.uid] = 1
            return true
        }
        operation.addExecutionBlock { context in
            ran.append(2)
            context.insert(Item.self)[Item.uid] = 2
            try await Task.sleep(for: .seconds(10))  // the cancellation cuts this short
            return true
        }
        operation.addExecutionBlock { _ in
            ran.append(3)
            return true
        }
        queue.addOperation(operation)
        _ = await readEvents(&events) { $0.kindName == "progress" }  // the first block is done and saved
        operation.cancel()
        let end = try #require(await readEvents(&events, until: \.isEnd))
        #expect(end.kindName == "cancelled")
        #expect(ran.all == [1, 2])
        let uids = try await container.newBackgroundContext().perform { context in
            try context.fetch(FetchRequest(Item.self)).map { $0[Item.uid] }
        }
        #expect(uids == [1])
    }
}
