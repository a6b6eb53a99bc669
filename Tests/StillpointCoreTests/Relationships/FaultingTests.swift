import Foundation
@testable import StillpointCore
import Testing

/// Related objects load when first touched, or with the fetch that prefetches them; merges keep them current.
@Suite("Faulting and prefetching")
struct FaultingTests {
    /// A batch "morning" with entries a, b, each owned by Ana.
    private static func fixture(_ store: TestStore) async throws -> (PersistentContainer, batch: ObjectID, owner: ObjectID) {
        let container = try await makeContainer(store, entities: relationshipEntities)
        let (batch, owner) = try await container.performBackgroundTask { context in
            let ana = context.insert(Person.self)
            ana[Person.name] = "Ana"
            let batch = context.insert(Batch.self)
            batch[Batch.name] = "morning"
            for title in ["a", "b"] {
                let entry = context.insert(Entry.self)
                entry[Entry.title] = title
                try entry.set(Entry.batch, to: batch)
                try entry.set(Entry.owner, to: ana)
            }
            try await context.save()
            return (batch.objectID, ana.objectID)
        }
        return (container, batch, owner)
    }

    @Test(arguments: TestStore.all) func aRelatedObjectLoadsWhenFirstTouched(store: TestStore) async throws {
        let (container, batchID, _) = try await Self.fixture(store)
        try await container.newBackgroundContext().perform { context throws in
            let entry = try #require(try context.fetch(FetchRequest(Entry.self)).first)
            #expect(context.registeredObject(for: batchID) == nil)
            #expect(try entry[Entry.batch]?[Batch.name] == "morning")
            #expect(context.registeredObject(for: batchID) != nil)
        }
    }

    @Test(arguments: TestStore.all) func aFetchPrefetchesRelationshipsByKeyPath(store: TestStore) async throws {
        let (container, batchID, ownerID) = try await Self.fixture(store)
        try await container.newBackgroundContext().perform { context throws in
            var request = FetchRequest(Entry.self)
            request.prefetchedRelationships = ["batch", "owner"]
            _ = try context.fetch(request)
            #expect(context.registeredObject(for: batchID) != nil)
            #expect(context.registeredObject(for: ownerID) != nil)
        }
        try await container.newBackgroundContext().perform { context throws in
            var request = FetchRequest(Batch.self)
            request.prefetchedRelationships = ["entries.owner"]
            _ = try context.fetch(request)
            let entries = context.registeredObjects.filter { $0.entity.name == "Entry" }
            #expect(entries.map { $0[Entry.title] }.sorted() == ["a", "b"])
            #expect(context.registeredObject(for: ownerID) != nil)

            request.prefetchedRelationships = ["entrys"]
            #expect(throws: SchemaError.self) { try context.fetch(request) }
        }
    }

    @Test(arguments: TestStore.shareable) func relatedObjectsStayCurrentAcrossMerges(store: TestStore) async throws {
        let (container, batchID, ownerID) = try await Self.fixture(store)
        let view = container.viewContext
        await view.setAutomaticallyMergesChangesFromParent(true)
        let entryID = try await view.perform { context in
            let entry = try #require(try context.fetch(FetchRequest(Entry.self, predicate: try FetchPredicate("title == 'a'"))).first)
            _ = try entry[Entry.batch]
            _ = try entry[Entry.owner]
            return entry.objectID
        }
        let renamed = try await container.newBackgroundContext().perform { context in
            try context.existingObject(with: batchID)[Batch.name] = "dawn"
            try context.delete(try context.existingObject(with: ownerID))
            return try await context.save()
        }
        await container.waitUntilMerged(try #require(renamed))
        try await view.perform { context throws in
            let entry = try context.existingObject(with: entryID)
            #expect(try entry[Entry.batch]?[Batch.name] == "dawn")
            #expect(try entry[Entry.owner] == nil)
            #expect(context.registeredObject(for: ownerID) == nil)
        }
    }

    @Test(arguments: TestStore.shareable) func aRelationshipAddedToAnExistingStoreGetsItsColumnAndForeignKey(store: TestStore) async throws {
        enum PlainBatch: Entity {
            static let entityName = "Batch"
            static let name = Attribute<String>("name")
            static let entity = EntityDescription("Batch", attributes: [name])
        }
        enum PlainEntry: Entity {
            static let entityName = "Entry"
            static let title = Attribute<String>("title")
            static let entity = EntityDescription("Entry", attributes: [title])
        }
        let location = try await store.makeLocation()
        let before = try openContainer(schema: try Schema([PlainBatch.self, PlainEntry.self]), location: location)
        try await before.performBackgroundTask { context in
            let entry = context.insert(PlainEntry.self)
            entry[PlainEntry.title] = "older"
            let batch = context.insert(PlainBatch.self)
            batch[PlainBatch.name] = "kept"
            try await context.save()
        }
        try before.close()

        let after = try openContainer(schema: try Schema([Batch.self, Entry.self, Person.self, Pass.self]), location: location)
        try await after.performBackgroundTask { context in
            let entry = try #require(try context.fetch(FetchRequest(Entry.self)).first)
            #expect(try entry[Entry.batch] == nil)
            let batch = try #require(try context.fetch(FetchRequest(Batch.self)).first)
            try batch.add(entry, to: Batch.entries)
            try await context.save()
            #expect(try batch[Batch.entries].map { $0[Entry.title] } == ["older"])
        }
        // The foreign key holds: a row can't refer to a batch that does not exist.
        let context = after.newBackgroundContext()
        try await context.perform { context in
            let entry = try #require(try context.fetch(FetchRequest(Entry.self)).first)
            try entry.setValue(.integer(9_999), forKey: "batch")
        }
        await #expect(throws: SaveError.self) { try await context.save() }
    }
}
