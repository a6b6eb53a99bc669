import Foundation
@testable import StillpointCore
import Testing

@Suite("Relationships")
struct RelationshipTests {
    private func container(_ store: TestStore) async throws -> PersistentContainer {
        try await makeContainer(store, entities: relationshipEntities)
    }

    /// Names of a to-many's objects, sorted, for comparisons.
    private static func titles(_ objects: [ManagedObject]) -> [String] {
        objects.map { $0[Entry.title] }.sorted()
    }

    @Test(arguments: TestStore.all) func objectsThatReferToUnsavedOnesSaveInOneGoWhateverTheOrderTheyWereMade(store: TestStore) async throws {
        let container = try await container(store)
        let batchID = try await container.newBackgroundContext().perform { context throws in
            // Entries made before their batch: the save writes the batch first.
            let entries = (1...5).map { number in
                let entry = context.insert(Entry.self)
                entry[Entry.title] = "entry \(number)"
                return entry
            }
            let batch = context.insert(Batch.self)
            batch[Batch.name] = "morning"
            for entry in entries { try batch.add(entry, to: Batch.entries) }
            #expect(try Self.titles(batch[Batch.entries]).count == 5)
            try await context.save()
            #expect(!batch.objectID.isTemporary)
            #expect(try entries.filter { entry in try entry[Entry.batch] !== batch }.isEmpty)
            #expect(try batch[Batch.entries].count == 5)
            return batch.objectID
        }
        try await container.newBackgroundContext().perform { context throws in
            let batch = try context.existingObject(with: batchID)
            #expect(try Self.titles(batch[Batch.entries]) == (1...5).map { "entry \($0)" })
            let entry = try #require(try batch[Batch.entries].first)
            #expect(try entry[Entry.batch]?.objectID == batchID)
        }
    }

    @Test(arguments: TestStore.all) func bothSidesStayInStepInTheContextAndAcrossAMerge(store: TestStore) async throws {
        let container = try await container(store)
        let (entryID, firstID, secondID) = try await container.newBackgroundContext().perform { context throws in
            let first = context.insert(Batch.self), second = context.insert(Batch.self)
            first[Batch.name] = "first"
            second[Batch.name] = "second"
            let entry = context.insert(Entry.self)
            entry[Entry.title] = "moved"
            try entry.set(Entry.batch, to: first)
            #expect(try first[Batch.entries].map(\.objectID) == [entry.objectID] && second[Batch.entries].isEmpty)
            try entry.set(Entry.batch, to: second)
            #expect(try first[Batch.entries].isEmpty && second[Batch.entries].map(\.objectID) == [entry.objectID])
            try await context.save()
            return (entry.objectID, first.objectID, second.objectID)
        }
        let view = container.viewContext
        await view.setAutomaticallyMergesChangesFromParent(true)
        try await view.perform { context throws in
            let entry = try context.existingObject(with: entryID)
            #expect(try entry[Entry.batch]?.objectID == secondID)
        }
        let background = container.newBackgroundContext()
        let changeSet = try await background.perform { context throws in
            let entry = try context.existingObject(with: entryID)
            try context.existingObject(with: firstID).add(entry, to: Batch.entries)
            return try await context.save()
        }
        await container.waitUntilMerged(try #require(changeSet))
        try await view.perform { context throws in
            let entry = try context.existingObject(with: entryID)
            #expect(try entry[Entry.batch]?.objectID == firstID)
            #expect(try context.existingObject(with: firstID)[Batch.entries].map(\.objectID) == [entryID])
            #expect(try context.existingObject(with: secondID)[Batch.entries].isEmpty)
        }
    }

    @Test(arguments: TestStore.all) func deletingABatchCascadesToItsEntriesAtOnceAndInTheStore(store: TestStore) async throws {
        let container = try await container(store)
        try await container.newBackgroundContext().perform { context throws in
            let batch = context.insert(Batch.self)
            batch[Batch.name] = "gone"
            for number in 1...3 {
                let entry = context.insert(Entry.self)
                entry[Entry.title] = "entry \(number)"
                try entry.set(Entry.batch, to: batch)
            }
            let kept = context.insert(Entry.self)
            kept[Entry.title] = "kept"
            try await context.save()
            let entries = try batch[Batch.entries]
            try context.delete(batch)
            #expect(entries.filter { !$0.isDeleted }.isEmpty)
            #expect(!kept.isDeleted)
            try await context.save()
        }
        try await container.newBackgroundContext().perform { context throws in
            #expect(try context.count(for: FetchRequest(Batch.self)) == 0)
            #expect(try context.fetch(FetchRequest(Entry.self)).map { $0[Entry.title] } == ["kept"])
        }
    }

    @Test(arguments: TestStore.all) func theDenyRuleRefusesTheSaveUntilTheFilesAreMovedAway(store: TestStore) async throws {
        let container = try await container(store)
        try await container.newBackgroundContext().perform { context throws in
            let folder = context.insert(Folder.self), other = context.insert(Folder.self)
            folder[Folder.name] = "full"
            other[Folder.name] = "other"
            let file = context.insert(File.self)
            file[File.name] = "notes.txt"
            try file.set(File.folder, to: folder)
            try await context.save()

            try context.delete(folder)
            let error = await #expect(throws: SaveError.self) { try await context.save() }
            guard case .validation(let failures)? = error else { Issue.record("expected a validation error"); return }
            #expect(failures.map(\.reason) == [.deleteDenied(relationship: "files", related: 1)])
            #expect(failures.first?.description.contains("delete or move them first") == true)

            try other.add(file, to: Folder.files)
            try await context.save()
            #expect(try file[File.folder] === other)
        }
        try await container.newBackgroundContext().perform { context throws in
            #expect(try context.fetch(FetchRequest(Folder.self)).map { $0[Folder.name] } == ["other"])
        }
    }

    @Test(arguments: TestStore.all) func aToOneWithoutInverseLetsGoOfADeletedObject(store: TestStore) async throws {
        let container = try await container(store)
        let entryID = try await container.newBackgroundContext().perform { context throws in
            let person = context.insert(Person.self)
            person[Person.name] = "Ana"
            let entry = context.insert(Entry.self)
            entry[Entry.title] = "owned"
            try entry.set(Entry.owner, to: person)
            try await context.save()
            return entry.objectID
        }
        try await container.newBackgroundContext().perform { context throws in
            let person = try #require(try context.fetch(FetchRequest(Person.self)).first)
            try context.delete(person)
            try await context.save()
        }
        try await container.newBackgroundContext().perform { context throws in
            #expect(try context.existingObject(with: entryID)[Entry.owner] == nil)
        }
    }

    @Test(arguments: TestStore.all) func theNoActionRuleLeavesReferencesThatTheSaveRefusesUntilTheyAreCleared(store: TestStore) async throws {
        let container = try await container(store)
        try await container.newBackgroundContext().perform { context throws in
            let ana = context.insert(Person.self), ben = context.insert(Person.self)
            ana[Person.name] = "Ana"
            ben[Person.name] = "Ben"
            let pass = context.insert(Pass.self)
            pass[Pass.code] = "A1"
            try ana.add(pass, to: Person.passes)
            try await context.save()

            try context.delete(ana)
            #expect(try pass[Pass.holder] === ana)  // noAction: nothing changed it
            let error = await #expect(throws: SaveError.self) { try await context.save() }
            guard case .validation(let failures)? = error else { Issue.record("expected a validation error"); return }
            #expect(failures.map(\.reason) == [.danglingReference(relationship: "passes")])

            try ben.add(pass, to: Person.passes)
            try await context.save()
        }
        try await container.newBackgroundContext().perform { context throws in
            let pass = try #require(try context.fetch(FetchRequest(Pass.self)).first)
            #expect(try pass[Pass.holder]?[Person.name] == "Ben")
            #expect(try context.fetch(FetchRequest(Person.self)).map { $0[Person.name] } == ["Ben"])
        }
    }

    @Test(arguments: TestStore.all) func aOneToOneStaysInStepFromEitherSideAndCascadesFromTheMember(store: TestStore) async throws {
        let container = try await container(store)
        try await container.newBackgroundContext().perform { context throws in
            let ana = context.insert(Member.self), ben = context.insert(Member.self)
            ana[Member.name] = "Ana"
            ben[Member.name] = "Ben"
            let first = context.insert(Locker.self), second = context.insert(Locker.self)
            first[Locker.number] = 1
            second[Locker.number] = 2
            try ana.set(Member.locker, to: first)           // from the side read through the locker's column
            #expect(try first[Locker.member] === ana)
            try second.set(Locker.member, to: ana)          // from the side that holds it: Ana lets go of locker 1
            #expect(try ana[Member.locker] === second && first[Locker.member] == nil)
            try ben.set(Member.locker, to: first)
            try await context.save()
        }
        try await container.newBackgroundContext().perform { context throws in
            let members = Dictionary(uniqueKeysWithValues: try context.fetch(FetchRequest(Member.self)).map { ($0[Member.name], $0) })
            #expect(try members["Ana"]?[Member.locker]?[Locker.number] == 2)
            #expect(try members["Ben"]?[Member.locker]?[Locker.number] == 1)
            #expect(try context.count(for: FetchRequest(Member.self, predicate: try FetchPredicate("locker.number == 2"))) == 1)
            #expect(try context.count(for: FetchRequest(Locker.self, predicate: try FetchPredicate("member.name == 'Ben'"))) == 1)
            let inMemory = try members.values.filter { try context.graph.matches($0, try FetchPredicate("locker.number == 2 OR ANY locker.number == 7")) }
            #expect(inMemory.map { $0[Member.name] } == ["Ana"])
            try context.delete(try #require(members["Ana"]))
            try await context.save()
        }
        try await container.newBackgroundContext().perform { context throws in
            #expect(try context.fetch(FetchRequest(Locker.self)).map { $0[Locker.number] } == [1])
        }
    }

    @Test(arguments: TestStore.all) func aChildContextsReferencesToUnsavedObjectsReachTheStore(store: TestStore) async throws {
        let container = try await container(store)
        let parent = container.newBackgroundContext()
        let child = await parent.newChildContext()
        try await child.perform { context throws in
            let batch = context.insert(Batch.self)
            batch[Batch.name] = "from child"
            let entry = context.insert(Entry.self)
            entry[Entry.title] = "child entry"
            try entry.set(Entry.batch, to: batch)
            try await context.save()
        }
        try await parent.perform { context throws in
            let batch = try #require(try context.fetch(FetchRequest(Batch.self)).first)
            #expect(try Self.titles(batch[Batch.entries]) == ["child entry"])
            try await context.save()
        }
        try await container.newBackgroundContext().perform { context throws in
            let entry = try #require(try context.fetch(FetchRequest(Entry.self)).first)
            #expect(try entry[Entry.batch]?[Batch.name] == "from child")
        }
    }

    @Test(arguments: TestStore.all) func aReferenceToARowDeletedElsewhereIsABrokenReference(store: TestStore) async throws {
        let container = try await container(store)
        let batchID = try await container.newBackgroundContext().perform { context throws in
            let batch = context.insert(Batch.self)
            batch[Batch.name] = "soon gone"
            try await context.save()
            return batch.objectID
        }
        let writer = container.newBackgroundContext()
        try await writer.perform { context throws in
            let entry = context.insert(Entry.self)
            entry[Entry.title] = "late"
            try entry.set(Entry.batch, to: try context.existingObject(with: batchID))
        }
        try await container.newBackgroundContext().perform { context throws in
            try context.delete(try context.existingObject(with: batchID))
            try await context.save()
        }
        try await writer.perform { context throws in
            let error = await #expect(throws: SaveError.self) { try await context.save() }
            guard case .brokenReference? = error else { Issue.record("expected a broken reference, got \(String(describing: error))"); return }
        }
    }

    @Test func schemasWithBrokenRelationshipsAreRefusedWithWhatToDo() throws {
        enum Lonely: Entity {
            static let others = ToMany<Entry>("others", inverse: "nothing")
            static let entity = EntityDescription("Lonely", attributes: [], relationships: [others])
        }
        #expect(throws: SchemaError.self) { try Schema([Lonely.self, Entry.self, Batch.self, Person.self]) }
        enum Husk: Entity {
            static let twin = ToOne<Husk>("twin", inverse: "twin")
            static let entity = EntityDescription("Husk", attributes: [], relationships: [twin])
        }
        do {
            _ = try Schema([Husk.self])
            Issue.record("a one-to-one whose sides both hold the column was accepted")
        } catch {
            #expect("\(error)".contains("declare the other side with `isStored: false`"))
        }
        do {
            _ = try Schema([Entry.self])
            Issue.record("a relationship to an undeclared entity was accepted")
        } catch {
            #expect("\(error)".contains("'Entry.batch' reaches 'Batch', which the schema does not declare"))
        }
    }
}
