import Foundation
import StillpointCore
import Testing

private typealias Session = ArticleSession.Session

// The examples of the Operations article (StillpointCore.docc/Operations.md) and of `ContextOperation`'s
// documentation, compiled here against the public API and run on every store; `DocumentationExamplesTests`
// checks that every example of the article is in this file, line for line.

/// The subclass of the article and of `ContextOperation`'s documentation.
final class CountItems: ContextOperation<Int>, @unchecked Sendable {
    override func main(context: isolated ObjectContext) async throws -> Int {
        try checkCancellation()
        return try context.count(for: FetchRequest(Item.self))
    }
}

/// Reads the result of the operation it was given, a dependency.
final class DescribeCount: ContextOperation<String>, @unchecked Sendable {
    let count: CountItems

    init(after count: CountItems) {
        self.count = count
        super.init(identifier: "describe")
        addDependency(count)
    }

    override func main(context: isolated ObjectContext) async throws -> String {
        "\(try result(of: count)) items"
    }
}

/// Saves in its own background context and says how many items it renamed.
final class RenameItems: ContextOperation<Int>, @unchecked Sendable {
    override func main(context: isolated ObjectContext) async throws -> Int {
        let items = try context.fetch(FetchRequest(Item.self))
        for (index, item) in items.enumerated() {
            if index.isMultiple(of: 100) { try checkCancellation() }
            item[Item.title] = item[Item.title].uppercased()
        }
        try await context.save()   // merged into the view context before the operation is reported finished
        return items.count
    }
}

/// A helper called inside `perform` or `main`: it runs on the context's executor, so it reads objects directly.
func titles(startingWith prefix: String, in context: isolated ObjectContext) throws -> [String] {
    try context.fetch(FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)]))
        .map { $0[Item.title] }
        .filter { $0.hasPrefix(prefix) }
}

/// `ContextOperation`'s first example: an operation from a closure.
private func averageDuration(_ container: PersistentContainer) async throws -> Double {
    let queue = ContextOperationQueue(container: container)
    let average = ContextOperation(identifier: "average_duration") { context, operation in
        var request = FetchRequest(Session.self)
        request.properties = [.aggregate(.average, of: "duration", as: "average")]
        return try context.fetchDictionaries(request).first?["average"]?.numericValue ?? 0
    }
    queue.addOperation(average)
    let seconds = try await average.value
    return seconds
}

private func chain(_ container: PersistentContainer) async throws -> String {
    let queue = ContextOperationQueue(container: container)
    let count = CountItems(identifier: "count")
    let describe = DescribeCount(after: count)
    queue.addOperations([count, describe])
    return try await describe.value   // "3 items"
}

private func closures(_ container: PersistentContainer) async throws -> String {
    let queue = ContextOperationQueue(container: container)
    let count = ContextOperation(identifier: "count") { context, _ in
        try context.count(for: FetchRequest(Item.self))
    }
    let summary = ContextOperation(identifier: "summary") { _, operation in
        "\(try operation.result(of: count)) items"
    }
    summary.addDependency(count)
    queue.addOperations([count, summary])
    return try await summary.value
}

private func cancelling(_ container: PersistentContainer) async throws -> [String] {
    let queue = ContextOperationQueue(container: container)
    queue.suspend()
    let count = CountItems(identifier: "count")
    let describe = DescribeCount(after: count)
    queue.addOperations([count, describe])
    count.cancel()
    queue.resume()
    await queue.waitUntilAllOperationsAreFinished()
    func ending<R>(_ operation: ContextOperation<R>) -> String {
        guard case .cancelled(let reason)? = operation.outcome else { return "\(operation.identifier): not cancelled" }
        return "\(operation.identifier): \(reason.rootCause)"
    }
    return [ending(count), ending(describe)]
}

/// `ContextOperation.value`'s example.
private func exported(_ export: ExportOperation) async throws -> Int {
    let rows = try await export.value
    return rows
}

private func rename(_ container: PersistentContainer) async throws -> [String] {
    let queue = ContextOperationQueue(container: container)
    let rename = RenameItems()
    queue.addOperation(rename)
    _ = try await rename.value
    // The view context merged the save before `value` returned.
    return try await container.viewContext.perform { context in try titles(startingWith: "ITEM", in: context) }
}

private func saveThenWait(_ container: PersistentContainer) async throws -> Int {
    let changes = try await container.performBackgroundTask { context in
        let item = context.insert(Item.self)
        item[Item.uid] = 99
        return try await context.save()
    }
    if let changes { await container.waitUntilMerged(changes) }
    // Every context that merges automatically has the new item now.
    return try await container.viewContext.perform { context in try context.count(for: FetchRequest(Item.self)) }
}

@Suite("Operations article")
struct OperationsArticleTests {
    @Test(arguments: TestStore.all) func aDependentReadsTheResultOfTheOperationItWasGiven(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...3, in: container)
        #expect(try await chain(container) == "3 items")
        #expect(try await closures(container) == "3 items")
    }

    @Test(arguments: TestStore.all) func anOperationFromAClosureReturnsItsResult(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: [Session.self])
        try await container.performBackgroundTask { context in
            for minutes in [10.0, 20.0] {
                let session = context.insert(Session.self)
                session[Session.start] = Date()
                session[Session.duration] = minutes * 60
            }
            try await context.save()
        }
        #expect(try await averageDuration(container) == 900)
    }

    @Test(arguments: TestStore.all) func cancellingADependencyCancelsItsDependent(store: TestStore) async throws {
        let container = try await makeContainer(store)
        #expect(try await cancelling(container) == ["count: cancelled on request", "describe: cancelled on request"])
    }

    @Test(arguments: TestStore.all) func anOperationThatSavedIsFinishedOnceItsSaveIsMerged(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...3, in: container)
        await container.viewContext.setAutomaticallyMergesChangesFromParent(true)
        // The view context holds the items, so the merge has objects to refresh.
        #expect(try await container.viewContext.perform { context in try titles(startingWith: "item", in: context) }.count == 3)
        #expect(try await rename(container) == ["ITEM 1", "ITEM 2", "ITEM 3"])
        #expect(try await saveThenWait(container) == 4)
    }
}
