import Foundation
import Synchronization
import Testing
@testable import StillpointCore

/// An operation built by subclassing: the titles of all items by uid.
final class TitleList: ContextOperation<[String]>, @unchecked Sendable {
    override func main(context: isolated ObjectContext) async throws -> [String] {
        try checkCancellation()
        return try context.fetch(FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)])).map { $0[Item.title] }
    }
}

@Suite("ContextOperation")
struct ContextOperationTests {
    @Test(arguments: TestStore.all) func closureOperationReturnsItsResult(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...3, in: container)
        let queue = ContextOperationQueue(container: container)
        let count = queue.addOperation(identifier: "count") { context, _ in
            try context.count(for: FetchRequest(Item.self))
        }
        #expect(try await count.value == 3)
        #expect(count.identifier == "count")
        #expect(count.isFinished)
        #expect(count.outcome?.isFinished == true)
    }

    @Test(arguments: TestStore.all) func subclassRunsItsMain(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems([2, 1], in: container)
        let queue = ContextOperationQueue(container: container)
        let titles = TitleList()
        queue.addOperation(titles)
        #expect(try await titles.value == ["item 1", "item 2"])
        #expect(titles.identifier.hasPrefix("operation-"))
    }

    @Test(arguments: TestStore.all) func dependentsStartAfterTheirDependenciesAndReadTheirResults(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...3, in: container)
        let queue = ContextOperationQueue(container: container, maxConcurrentOperationCount: 3)
        var events = queue.events.makeAsyncIterator()
        let count = ContextOperation<Int>(identifier: "count") { context, _ in try context.count(for: FetchRequest(Item.self)) }
        let titles = TitleList(identifier: "titles")
        let report = ContextOperation<String>(identifier: "report") { _, operation in
            "\(try operation.result(of: count)): " + (try operation.result(of: titles)).joined(separator: ", ")
        }
        report.addDependency(count)
        report.addDependency(titles)
        #expect(report.dependencies.map(\.identifier) == ["count", "titles"])
        queue.addOperations([report, count, titles])  // the dependent first: the queue still waits
        #expect(try await report.value == "3: item 1, item 2, item 3")

        let trace = await readEvents(&events, untilEnded: 3).map(\.trace)
        let reportStart = try #require(trace.firstIndex(of: "report started"))
        #expect(trace.firstIndex(of: "count finished")! < reportStart)
        #expect(trace.firstIndex(of: "titles finished")! < reportStart)
    }

    @Test(arguments: TestStore.all) func readingTheResultOfAnOperationThatIsNotADependencyFails(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let queue = ContextOperationQueue(container: container)
        let other = queue.addOperation(identifier: "other") { _, _ in 1 }
        _ = try await other.value
        let reader = queue.addOperation(identifier: "reader") { _, operation in try operation.result(of: other) }
        await #expect(throws: ContextOperationError.self) { _ = try await reader.value }
        guard case .failed(ContextOperationError.notADependency(let identifier))? = reader.outcome else {
            Issue.record("expected notADependency, got \(String(describing: reader.outcome))")
            return
        }
        #expect(identifier == "other")
    }

    @Test(arguments: TestStore.all) func anOperationWithoutWorkFailsAndSaysWhy(store: TestStore) async throws {
        let queue = ContextOperationQueue(container: try await makeContainer(store))
        let empty = ContextOperation<Int>(identifier: "empty")
        queue.addOperation(empty)
        await empty.waitUntilFinished()
        guard case .failed(ContextOperationError.mainNotImplemented)? = empty.outcome else {
            Issue.record("expected mainNotImplemented, got \(String(describing: empty.outcome))")
            return
        }
    }

    @Test(arguments: TestStore.all) func progressIsPublishedAsItIsReported(store: TestStore) async throws {
        let queue = ContextOperationQueue(container: try await makeContainer(store))
        var events = queue.events.makeAsyncIterator()
        let counting: ContextOperation<Int> = queue.addOperation(identifier: "counting") { _, operation in
            for step in 1...3 {
                operation.reportProgress(completed: step, of: 3, message: "step \(step)")
            }
            return 3
        }
        let progress = await readEvents(&events, untilEnded: 1).compactMap { event -> OperationProgress? in
            if case .progress(let progress) = event.kind { return progress }
            return nil
        }
        #expect(progress.map(\.completedUnitCount) == [1, 2, 3])
        #expect(progress.map(\.message) == ["step 1", "step 2", "step 3"])
        #expect(counting.progress.fractionCompleted == 1)
        #expect(OperationProgress(completedUnitCount: 5).fractionCompleted == nil)
    }

    @Test(arguments: TestStore.all) func runsInTheContextItIsGiven(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let context = container.newBackgroundContext(name: "given")
        let queue = ContextOperationQueue(container: container)
        let insert = ContextOperation<String>(context: context) { context, _ in
            context.insert(Item.self)[Item.uid] = 5
            return context.name
        }
        queue.addOperation(insert)
        #expect(try await insert.value == "given")
        // The unsaved insert is still in the given context: the operation ran there and did not save.
        #expect(await context.perform { $0.insertedObjects.count } == 1)
    }

    @Test(arguments: TestStore.all) func anOperationThatSavedFinishesOnlyOnceItsSaveIsMerged(store: TestStore) async throws {
        let container = try await makeContainer(store)
        // A stand-in for a context that merges automatically, so that the test decides when the merge happens.
        let merger = NSObject()
        await container.mergeTracker.register(ObjectIdentifier(merger), through: container.hub.lastPublication)
        var changeSets = container.changeSets.makeAsyncIterator()
        let queue = ContextOperationQueue(container: container)
        let save = queue.addOperation(identifier: "save") { context, _ in
            context.insert(Item.self)[Item.uid] = 1
            try await context.save()
        }
        let changeSet = try #require(await changeSets.next())
        #expect(changeSet.inserted.count == 1)
        // Saved but not merged: the operation must still be waiting. A finished operation would not wait long.
        try await Task.sleep(for: .milliseconds(150))
        #expect(save.phase == .running)
        #expect(queue.operationCount == 1)

        await container.mergeTracker.didMerge(ObjectIdentifier(merger), through: container.hub.publication(of: changeSet))
        await queue.waitUntilAllOperationsAreFinished()
        #expect(save.isFinished)
        withExtendedLifetime(merger) {}
    }

    @MainActor
    @Test(arguments: TestStore.all) func whenTheOperationIsReportedFinishedTheViewContextHasItsChanges(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems([1], in: container)
        let view = container.viewContext
        await view.setAutomaticallyMergesChangesFromParent(true)
        let id = try view.performAndWait { try $0.fetch(FetchRequest(Item.self)).first!.objectID }
        let queue = ContextOperationQueue(container: container)
        var events = queue.events.makeAsyncIterator()
        let rename = ContextOperation<Void>(identifier: "rename") { context, _ in
            try context.existingObject(with: id)[Item.title] = "renamed"
            try await context.save()
        }
        queue.addOperation(rename)
        let finished = await readEvents(&events, until: \.isEnd)
        #expect(finished?.kindName == "finished")
        // Read at once, on the main actor, with no await in between: the merge came before the event.
        let title = view.performAndWait { $0.registeredObject(for: id)?[Item.title] }
        #expect(title == "renamed")
        await view.setAutomaticallyMergesChangesFromParent(false)
    }
}
