import Foundation
import StillpointCore
import StillpointSQLite
import Testing

// The examples of the catalogue's overview (StillpointCore.md), of "Concurrency and Confinement", "Choosing a
// Topology" and `save()`'s documentation (ObjectContext-save.md), compiled here and run on a file store.

private typealias Session = ArticleSession.Session

private func overview(storeURL: URL) async throws -> AttributeValue? {
    let container = try PersistentContainer(schema: try Schema([Session.self]), location: .file(storeURL))

    try await container.performBackgroundTask { context in
        let session = context.insert(Session.self)
        session[Session.start] = Date()
        session[Session.duration] = 1_200
        try await context.save()            // one transaction; a ChangeSet for every observer
    }

    let total = try await container.newBackgroundContext().perform { context in
        var request = FetchRequest(Session.self)
        request.properties = [.aggregate(.sum, of: "duration", as: "total")]
        return try context.fetchDictionaries(request).first?["total"]
    }
    try container.close()
    return total
}

private func confinement(_ container: PersistentContainer) async throws -> (Int, String) {
    let context = container.newBackgroundContext(name: "import")
    let count = try await context.perform { context in
        try context.count(for: FetchRequest(Session.self))
    }
    let background = container.newBackgroundContext()
    let id = try await background.perform { context in
        try context.fetch(FetchRequest(Session.self, limit: 1))[0].objectID
    }
    try await container.viewContext.perform { context in
        let session = try context.existingObject(with: id)   // the view context's own object for that row
        print(session[Session.kind])
    }
    let kind = try await container.viewContext.perform { context in try context.existingObject(with: id)[Session.kind] }
    return (count, kind)
}

private func topologies(_ container: PersistentContainer) async throws -> Int {
    try await container.performBackgroundTask { context in
        let session = context.insert(Session.self)   // insert, update, delete ...
        session[Session.start] = Date()
        try await context.save()
    }
    // The view context merges the change set by itself, on the main actor, in save order.

    let editor = await container.viewContext.newChildContext(name: "edit sheet")
    await editor.perform { context in
        let session = context.insert(Session.self)   // ... edit in `editor` ...
        session[Session.start] = Date()
        session[Session.duration] = 600
    }
    try await editor.save()                   // "Done": into the view context
    try await container.viewContext.save()    // then to the store
    return try await container.newBackgroundContext().perform { context in try context.count(for: FetchRequest(Session.self)) }
}

private func saving(_ container: PersistentContainer) async throws -> ChangeSet? {
    let changes = try await container.performBackgroundTask { context in
        let item = context.insert(Item.self)
        item[Item.uid] = 7
        item[Item.title] = "seven"
        return try await context.save()   // the change set: one inserted Item
    }
    return changes
}

@Suite("Overview articles")
struct OverviewArticleTests {
    @Test func theOverviewSavesAndSumsASession() async throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let total = try await overview(storeURL: directory.appendingPathComponent("practice.sqlite"))
        #expect(total?.numericValue == 1_200)
    }

    @Test(arguments: TestStore.all) func objectsStayInTheirContextAndTheirIDsCross(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: [Session.self])
        try await container.performBackgroundTask { context in
            let session = context.insert(Session.self)
            session[Session.start] = Date()
            session[Session.duration] = 60
            session[Session.kind] = "yoga"
            try await context.save()
        }
        let (count, kind) = try await confinement(container)
        #expect(count == 1)
        #expect(kind == "yoga")
    }

    @Test(arguments: TestStore.all) func aChildContextsSaveReachesTheStoreThroughItsParent(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: [Session.self])
        #expect(try await topologies(container) == 2)
    }

    @Test(arguments: TestStore.all) func aSaveReturnsItsChangeSet(store: TestStore) async throws {
        let container = try await makeContainer(store)
        let changes = try #require(try await saving(container))
        #expect(changes.inserted.count == 1)
        // Nothing left to save: no transaction, no change set.
        #expect(try await container.newBackgroundContext().perform { try await $0.save() } == nil)
    }
}
