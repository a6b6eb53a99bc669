import Foundation
import Testing
@testable import StillpointCore

@Suite("BatchDeleteOperation")
struct BatchDeleteOperationTests {
    @Test(arguments: TestStore.all) func deletesTheMatchingRowsAndReportsThem(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...10, in: container)
        let queue = ContextOperationQueue(container: container)
        let purge = BatchDeleteOperation(FetchRequest(Item.self, predicate: try FetchPredicate("uid > 6")), identifier: "purge")
        queue.addOperation(purge)
        let result = try await purge.value
        #expect(result.count == 4)
        #expect(result.changeSet?.deleted.count == 4)
        #expect(purge.progress.completedUnitCount == 4)
        #expect(try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Item.self)) } == 6)
    }

    @MainActor
    @Test(arguments: TestStore.all) func finishesOnlyOnceTheViewContextHasMergedTheDelete(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...3, in: container)
        let view = container.viewContext
        await view.setAutomaticallyMergesChangesFromParent(true)
        let ids = try view.performAndWait { try $0.fetch(FetchRequest(Item.self)).map(\.objectID) }
        let queue = ContextOperationQueue(container: container)
        var events = queue.events.makeAsyncIterator()
        queue.addOperation(BatchDeleteOperation(FetchRequest(Item.self)))
        let end = await readEvents(&events, until: \.isEnd)
        #expect(end?.kindName == "finished")
        let remaining = view.performAndWait { context in ids.filter { context.registeredObject(for: $0) != nil }.count }
        #expect(remaining == 0)
        await view.setAutomaticallyMergesChangesFromParent(false)
    }
}
