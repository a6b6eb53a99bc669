import Foundation
@testable import StillpointCore
import Testing

/// A tree: deleting a node deletes its children.
enum Node: Entity {
    static let name = Attribute<String>("name")
    static let parent = ToOne<Node>("parent", inverse: "children")
    static let children = ToMany<Node>("children", inverse: "parent", deleteRule: .cascade)
    static let entity = EntityDescription("Node", attributes: [name], relationships: [parent, children])
}

/// A seat held for a guest can't be deleted (deny on the side that holds the column).
enum Seat: Entity {
    static let number = Attribute<Int>("number")
    static let guest = ToOne<Guest>("guest", inverse: "seat", deleteRule: .deny)
    static let entity = EntityDescription("Seat", attributes: [number], relationships: [guest])
}

enum Guest: Entity {
    static let name = Attribute<String>("name")
    static let seat = ToOne<Seat>("seat", inverse: "guest", isStored: false)
    static let entity = EntityDescription("Guest", attributes: [name], relationships: [seat])
}

/// Saves and batch deletes where the order of rows, or what a predicate reads, matters.
@Suite("Relationships: order and timing")
struct RelationshipEdgeCaseTests {
    @Test(arguments: TestStore.all) func deletingATreeDeletesChildrenBeforeTheirParent(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: [Node.self])
        try await container.performBackgroundTask { context in
            let root = context.insert(Node.self)
            root[Node.name] = "root"
            for name in ["a", "b", "c", "d", "e"] {
                let child = context.insert(Node.self)
                child[Node.name] = name
                try root.add(child, to: Node.children)
                let grandchild = context.insert(Node.self)
                grandchild[Node.name] = name + "1"
                try child.add(grandchild, to: Node.children)
            }
            try await context.save()
            try context.delete(root)
            try await context.save()
            #expect(try context.count(for: FetchRequest(Node.self)) == 0)
        }
        // A batch delete can't follow a cascade back into its own entity: it says so, and deletes nothing.
        try await container.performBackgroundTask { context in
            let node = context.insert(Node.self)
            node[Node.name] = "alone"
            try await context.save()
        }
        let context = container.newBackgroundContext()
        do {
            _ = try await context.batchDelete(FetchRequest(Node.self))
            Issue.record("a batch delete followed a cascade into its own entity")
        } catch {
            #expect("\(error)".contains("delete the objects in a context"), "\(error)")
        }
    }

    @Test(arguments: TestStore.all) func aBatchDeleteThroughItsCascadedRelationshipDeletesWhatItMatched(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: relationshipEntities)
        try await container.performBackgroundTask { context in
            for (name, minutes) in [("long", 30), ("short", 5)] {
                let batch = context.insert(Batch.self)
                batch[Batch.name] = name
                let entry = context.insert(Entry.self)
                entry[Entry.title] = name
                entry[Entry.minutes] = minutes
                try entry.set(Entry.batch, to: batch)
            }
            try await context.save()
        }
        let context = container.newBackgroundContext()
        let result = try await context.batchDelete(FetchRequest(Batch.self, predicate: try FetchPredicate("ANY entries.minutes > 10")))
        #expect(result.count == 1)
        try await context.perform { context throws in
            #expect(try context.fetch(FetchRequest(Batch.self)).map { $0[Batch.name] } == ["short"])
            #expect(try context.fetch(FetchRequest(Entry.self)).map { $0[Entry.title] } == ["short"])
        }
    }

    @Test(arguments: TestStore.all) func aBatchDeleteHonoursDenyOnTheSideThatHoldsTheColumn(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: [Seat.self, Guest.self])
        try await container.performBackgroundTask { context in
            let (taken, free) = (context.insert(Seat.self), context.insert(Seat.self))
            taken[Seat.number] = 1
            free[Seat.number] = 2
            let guest = context.insert(Guest.self)
            guest[Guest.name] = "Ana"
            try guest.set(Guest.seat, to: taken)
            try await context.save()
        }
        let context = container.newBackgroundContext()
        await #expect(throws: SaveError.self) { try await context.batchDelete(FetchRequest(Seat.self)) }
        #expect(try await context.batchDelete(FetchRequest(Seat.self, predicate: try FetchPredicate("number == 2"))).count == 1)
    }

    @Test(arguments: TestStore.all) @MainActor func aReferenceMadeWhileASaveRunsGetsItsRowID(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: relationshipEntities)
        let view = container.viewContext
        await view.perform { context in
            let batch = context.insert(Batch.self)
            batch[Batch.name] = "in flight"
        }
        async let saving = view.perform { context in try await context.save() }
        // Runs while the save above waits for the store's writer: the batch is still unsaved here.
        try await view.perform { context in
            let entry = context.insert(Entry.self)
            entry[Entry.title] = "made meanwhile"
            let batch = try #require(context.insertedObjects.first { $0.entity.name == "Batch" } ?? context.registeredObjects.first { $0.entity.name == "Batch" })
            try entry.set(Entry.batch, to: batch)
        }
        _ = try await saving
        try await view.perform { context in
            try await context.save()
            let entry = try #require(context.registeredObjects.first { $0.entity.name == "Entry" })
            #expect(try entry[Entry.batch].map { $0[Batch.name] } == "in flight")
        }
        try await container.newBackgroundContext().perform { context throws in
            let entry = try #require(try context.fetch(FetchRequest(Entry.self)).first)
            #expect(try entry[Entry.batch]?[Batch.name] == "in flight")
        }
    }

    @Test(arguments: [TestStore.sqliteMemory, .sqliteFile]) func aRowIDTheStoreGivesAgainDoesNotDeleteTheNewObject(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: relationshipEntities)
        let holder = container.newBackgroundContext()
        let oldID = try await holder.perform { context in
            let batch = context.insert(Batch.self)
            batch[Batch.name] = "old"
            try await context.save()
            return batch.objectID
        }
        try await container.performBackgroundTask { context in
            try context.delete(try context.existingObject(with: oldID))
            try await context.save()
        }
        try await holder.perform { context throws in
            let batch = context.insert(Batch.self)
            batch[Batch.name] = "new"
            let entry = context.insert(Entry.self)
            entry[Entry.title] = "refers to the new one"
            try entry.set(Entry.batch, to: batch)
            try await context.save()
            #expect(!batch.isDeleted)
            #expect(try entry[Entry.batch] === batch)
            batch[Batch.name] = "renamed"
            try await context.save()
        }
        try await container.newBackgroundContext().perform { context throws in
            #expect(try context.fetch(FetchRequest(Batch.self)).map { $0[Batch.name] } == ["renamed"])
        }
    }
}
