import Foundation
import StillpointCore
import Testing

// The examples of "Merging and Merge Policies" (StillpointCore.docc/MergingAndPolicies.md), compiled here and run
// on every store.

private typealias Session = ArticleSession.Session

private func policies(_ context: ObjectContext) async {
    await context.setMergePolicy(.mergeByPropertyObjectTrump)
    await context.setMergePolicy(.mergeByPropertyStoreTrump, for: Session.entity)
}

private func observe(_ container: PersistentContainer) async {
    for await changeSet in container.changeSets {
        print(changeSet.sequence, changeSet.inserted.count, changeSet.entityNames)
    }
}

@Suite("Merging article")
struct MergingArticleTests {
    @Test(arguments: TestStore.all) func anObserverSeesEachSavesChangeSet(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: [Session.self])
        let context = container.newBackgroundContext()
        await policies(context)
        #expect(await context.mergePolicy == .mergeByPropertyObjectTrump)
        var changeSets = container.changeSets.makeAsyncIterator()
        let observer = Task { await observe(container) }
        try await context.perform { context in
            let session = context.insert(Session.self)
            session[Session.start] = Date()
            try await context.save()
        }
        let changeSet = try #require(await changeSets.next())
        #expect(changeSet.inserted.count == 1)
        #expect(changeSet.entityNames.contains("Session"))
        // The observer's loop goes on until its task is cancelled.
        observer.cancel()
        await observer.value
    }
}
