import Foundation
@testable import StillpointCore
import Testing

/// A batch delete applies the delete rules in the store, in its transaction, and contexts learn what they reached.
@Suite("Delete rules in batch deletes")
struct BatchDeleteRuleTests {
    @Test(arguments: TestStore.all) func aCascadeReachesALiveContextAndNullifiedReferencesLetGo(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: relationshipEntities)
        let (entryIDs, keptID) = try await container.newBackgroundContext().perform { context in
            let ana = context.insert(Person.self)
            ana[Person.name] = "Ana"
            let gone = context.insert(Batch.self), kept = context.insert(Batch.self)
            gone[Batch.name] = "gone"
            kept[Batch.name] = "kept"
            var entries: [ManagedObject] = []
            for (number, batch) in [(1, gone), (2, gone), (3, kept)] {
                let entry = context.insert(Entry.self)
                entry[Entry.title] = "entry \(number)"
                try entry.set(Entry.batch, to: batch)
                try entry.set(Entry.owner, to: ana)
                entries.append(entry)
            }
            try await context.save()
            return (entries.map(\.objectID), kept.objectID)
        }
        let view = container.viewContext
        await view.setAutomaticallyMergesChangesFromParent(true)
        try await view.perform { context in
            for id in entryIDs { _ = try context.existingObject(with: id) }
        }

        let background = container.newBackgroundContext()
        let result = try await background.batchDelete(FetchRequest(Batch.self, predicate: try FetchPredicate("name == 'gone'")))
        #expect(result.count == 1)
        await container.waitUntilMerged(try #require(result.changeSet))
        try await view.perform { context throws in
            let gone = [context.registeredObject(for: entryIDs[0]), context.registeredObject(for: entryIDs[1])]
            #expect(gone.allSatisfy { $0 == nil })
            let held = context.registeredObject(for: entryIDs[2])
            let kept = try #require(held)
            #expect(try kept[Entry.batch]?.objectID == keptID)
        }

        // Deleting the owner clears the references to it (a to-one without inverse), in the store and in the view.
        let owners = try await background.batchDelete(FetchRequest(Person.self))
        await container.waitUntilMerged(try #require(owners.changeSet))
        try await view.perform { context throws in
            let held = context.registeredObject(for: entryIDs[2])
            let kept = try #require(held)
            #expect(try kept[Entry.owner] == nil)
        }
        try await container.newBackgroundContext().perform { context throws in
            #expect(try context.fetch(FetchRequest(Entry.self)).map { $0[Entry.title] } == ["entry 3"])
            #expect(try context.count(for: FetchRequest(Entry.self, predicate: try FetchPredicate("owner != nil"))) == 0)
        }
    }

    @Test(arguments: TestStore.all) func denyAndNoActionRefuseTheBatchAndDeleteNothing(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: relationshipEntities)
        try await container.performBackgroundTask { context in
            let folder = context.insert(Folder.self)
            folder[Folder.name] = "full"
            let file = context.insert(File.self)
            file[File.name] = "a.txt"
            try file.set(File.folder, to: folder)
            let ben = context.insert(Person.self)
            ben[Person.name] = "Ben"
            let pass = context.insert(Pass.self)
            pass[Pass.code] = "B1"
            try ben.add(pass, to: Person.passes)
            try await context.save()
        }
        let context = container.newBackgroundContext()
        let denied = await #expect(throws: SaveError.self) { try await context.batchDelete(FetchRequest(Folder.self)) }
        guard case .validation(let failures)? = denied else { Issue.record("expected a validation error"); return }
        #expect(failures.map(\.reason) == [.deleteDenied(relationship: "files", related: 1)])

        let refused = await #expect(throws: SaveError.self) { try await context.batchDelete(FetchRequest(Person.self)) }
        guard case .brokenReference? = refused else { Issue.record("expected a broken reference, got \(String(describing: refused))"); return }
        try await context.perform { context throws in
            #expect(try context.count(for: FetchRequest(Folder.self)) == 1)
            #expect(try context.count(for: FetchRequest(Person.self)) == 1)
        }
    }
}
