import Foundation
import Testing
@testable import StillpointCore

/// The golden conflict case: a row {a:1, b:1, c:1}; X reads it; Y sets a=2, c=2 and saves; X sets a=3, b=3
/// and saves under each policy.
@Suite("Merge policies")
struct MergePolicyTests {
    static let goldenCases: [(policy: MergePolicy, objectAfter: [Int]?, store: [Int])] = [
        (.error, nil, [2, 1, 2]),
        (.mergeByPropertyStoreTrump, [2, 3, 2], [2, 3, 2]),
        (.mergeByPropertyObjectTrump, [3, 3, 2], [3, 3, 2]),
        (.overwrite, [3, 3, 1], [3, 3, 1]),
        (.rollback, [2, 1, 2], [2, 1, 2]),
    ]

    @Test(arguments: TestStore.all, goldenCases)
    func goldenConflict(store: TestStore, golden: (policy: MergePolicy, objectAfter: [Int]?, store: [Int])) async throws {
        let (policy, objectAfter, expectedStore) = golden
        let container = try await makeContainer(store)
        let id = try await container.performBackgroundTask { context in
            let row = context.insert(Row3.self)
            row[Row3.a] = 1
            row[Row3.b] = 1
            row[Row3.c] = 1
            try await context.save()
            return row.objectID
        }
        let x = container.newBackgroundContext(name: "X")
        await x.setMergePolicy(policy)
        _ = try await x.perform { try $0.existingObject(with: id).objectID }
        try await container.newBackgroundContext(name: "Y").perform { context in
            let row = try context.existingObject(with: id)
            row[Row3.a] = 2
            row[Row3.c] = 2
            try await context.save()
        }
        let outcome: Result<[Int], any Error> = await x.perform { context in
            do {
                let row = try context.existingObject(with: id)
                row[Row3.a] = 3
                row[Row3.b] = 3
                try await context.save()
                return .success([row[Row3.a], row[Row3.b], row[Row3.c]])
            } catch {
                return .failure(error)
            }
        }
        switch (outcome, objectAfter) {
        case (.success(let values), let expected?):
            #expect(values == expected, "\(policy): the object in X")
        case (.failure(let error), nil):
            guard case SaveError.conflicts(let conflicts) = error else { Issue.record("\(error)"); return }
            #expect(conflicts.count == 1)
            let byName = Dictionary(uniqueKeysWithValues: conflicts[0].attributes.map { ($0.name, $0) })
            #expect(byName["a"] == AttributeConflict(name: "a", readValue: .integer(1), objectValue: .integer(3), storeValue: .integer(2)))
            #expect(byName["b"] == AttributeConflict(name: "b", readValue: .integer(1), objectValue: .integer(3), storeValue: .integer(1)))
            #expect(byName["c"] == AttributeConflict(name: "c", readValue: .integer(1), objectValue: .integer(1), storeValue: .integer(2)))
            #expect(conflicts[0].readVersion == 1 && conflicts[0].storeVersion == 2)
        default:
            Issue.record("\(policy): unexpected outcome \(outcome)")
        }
        let stored = try await container.newBackgroundContext().perform { context in
            let row = try context.existingObject(with: id)
            return [row[Row3.a], row[Row3.b], row[Row3.c]]
        }
        #expect(stored == expectedStore, "\(policy): the store")
    }

    @Test(arguments: TestStore.all) func aPolicyPerEntityTakesPrecedence(store: TestStore) async throws {
        let container = try await makeContainer(store)
        try await insertItems([1], in: container)
        let id = try await container.performBackgroundTask { context in
            let row = context.insert(Row3.self)
            row[Row3.a] = 1; row[Row3.b] = 1; row[Row3.c] = 1
            try await context.save()
            return row.objectID
        }
        let x = container.newBackgroundContext()
        await x.perform { context in
            context.setMergePolicy(.error)
            context.setMergePolicy(.overwrite, for: Row3.entity)
        }
        _ = try await x.perform { try $0.existingObject(with: id).objectID }
        try await container.performBackgroundTask { context in
            try context.existingObject(with: id)[Row3.c] = 9
            try await context.save()
        }
        try await x.perform { context in
            try context.existingObject(with: id)[Row3.a] = 5
            try await context.save()
        }
        let stored = try await container.newBackgroundContext().perform { context in
            let row = try context.existingObject(with: id)
            return [row[Row3.a], row[Row3.b], row[Row3.c]]
        }
        #expect(stored == [5, 1, 1])
    }

    @Test(arguments: TestStore.all, [MergePolicy.mergeByPropertyObjectTrump, .overwrite, .mergeByPropertyStoreTrump, .rollback])
    func uniquenessConflictsFollowThePolicy(store: TestStore, policy: MergePolicy) async throws {
        let container = try await makeContainer(store)
        try await insertItems([1], in: container)
        let (title, id) = try await container.performBackgroundTask { context in
            context.setMergePolicy(policy)
            let item = context.insert(Item.self)
            item[Item.uid] = 1
            item[Item.title] = "from the second insert"
            try await context.save()
            return (item[Item.title], item.objectID)
        }
        let stored = try await container.newBackgroundContext().perform { context in
            try context.fetch(FetchRequest(Item.self)).map { ($0.objectID, $0[Item.title]) }
        }
        #expect(stored.count == 1)
        #expect(stored[0].0 == id, "the inserted object became the existing row")
        let upserts = policy == .mergeByPropertyObjectTrump || policy == .overwrite
        #expect(stored[0].1 == (upserts ? "from the second insert" : "item 1"))
        #expect(title == stored[0].1)
    }

    /// The context already holds the row the insert merges into: that object stays registered and alive, and
    /// shows what the row holds now; the inserted duplicate is marked deleted, and nothing saves through it.
    @Test(arguments: TestStore.all, [MergePolicy.mergeByPropertyObjectTrump, .overwrite, .mergeByPropertyStoreTrump, .rollback])
    func anInsertMergingIntoAHeldRowKeepsTheHeldObject(store: TestStore, policy: MergePolicy) async throws {
        let container = try await makeContainer(store)
        try await insertItems([1], in: container)
        let upserts = policy == .mergeByPropertyObjectTrump || policy == .overwrite
        try await container.performBackgroundTask { context in
            context.setMergePolicy(policy)
            let held = try context.fetch(FetchRequest(Item.self))[0]
            let item = context.insert(Item.self)
            item[Item.uid] = 1
            item[Item.title] = "from the second insert"
            try await context.save()
            let expected = upserts ? "from the second insert" : "item 1"
            #expect(!held.isDeleted && context.registeredObject(for: held.objectID) === held)
            #expect(item.objectID == held.objectID && item.isDeleted)
            #expect(held[Item.title] == expected && item[Item.title] == expected)
            let (hasChanges, registered) = (context.hasChanges, context.registeredObjects.count)
            #expect(!hasChanges && registered == 1)

            item[Item.title] = "edited through the duplicate"
            let unchanged = !context.hasChanges
            #expect(unchanged)
            #expect(throws: ContextError.self) { try context.delete(item) }
            held[Item.title] = "edited"
            try await context.save()
            #expect(held[Item.title] == "edited")
        }
    }

    /// X edits a row that Y deleted: `error` reports a conflict with no store version; every other policy lets
    /// the deletion stand, and X's object is marked deleted.
    @Test(arguments: TestStore.all, MergePolicy.allCases)
    func anEditOfARowDeletedElsewhere(store: TestStore, policy: MergePolicy) async throws {
        let (container, x, id) = try await storeReadByX(store, under: policy)
        try await container.performBackgroundTask { context in
            try context.delete(try context.existingObject(with: id))
            try await context.save()
        }
        let outcome: Result<Bool, any Error> = await x.perform { context in
            do {
                let item = try context.existingObject(with: id)
                item[Item.title] = "edited"
                try await context.save()
                return .success(item.isDeleted)
            } catch {
                return .failure(error)
            }
        }
        let rows = try await container.newBackgroundContext().perform { try $0.count(for: FetchRequest(Item.self)) }
        #expect(rows == 0)
        switch outcome {
        case .failure(SaveError.conflicts(let conflicts)) where policy == .error:
            #expect(conflicts.map(\.objectID) == [id] && conflicts[0].storeVersion == nil)
        case .success(let isDeleted) where policy != .error:
            #expect(isDeleted)
        default:
            Issue.record("\(policy): \(outcome)")
        }
    }

    /// X deletes a row that Y changed: `error` reports a conflict, `rollback` keeps the row and shows Y's values
    /// in X's object, the other policies delete it.
    @Test(arguments: TestStore.all, MergePolicy.allCases)
    func aDeleteOfARowChangedElsewhere(store: TestStore, policy: MergePolicy) async throws {
        let (container, x, id) = try await storeReadByX(store, under: policy)
        try await container.performBackgroundTask { context in
            try context.existingObject(with: id)[Item.title] = "changed by Y"
            try await context.save()
        }
        let outcome: Result<(Bool, String), any Error> = await x.perform { context in
            do {
                let item = try context.existingObject(with: id)
                try context.delete(item)
                try await context.save()
                return .success((item.isDeleted, item.isDeleted ? "" : item[Item.title]))
            } catch {
                return .failure(error)
            }
        }
        let titles = try await container.newBackgroundContext().perform { try $0.fetch(FetchRequest(Item.self)).map { $0[Item.title] } }
        switch (policy, outcome) {
        case (.error, .failure(SaveError.conflicts(let conflicts))):
            #expect(conflicts.map(\.objectID) == [id] && conflicts[0].storeVersion == 2)
            #expect(titles == ["changed by Y"])
        case (.rollback, .success(let (isDeleted, title))):
            #expect(!isDeleted && title == "changed by Y")
            #expect(titles == ["changed by Y"])
        case (.mergeByPropertyStoreTrump, .success(let (isDeleted, _))), (.mergeByPropertyObjectTrump, .success(let (isDeleted, _))),
             (.overwrite, .success(let (isDeleted, _))):
            #expect(isDeleted && titles.isEmpty)
        default:
            Issue.record("\(policy): \(outcome)")
        }
    }

    /// A save of many rows writes its updates and deletes of one entity in bulk: exactly the rows another context
    /// changed or deleted are settled by the policy, whatever their place among the others. Under `error`, the
    /// conflicts name those rows and nothing is written; under object-trump, the rows are merged or deleted.
    @Test(arguments: TestStore.all, [MergePolicy.error, .mergeByPropertyObjectTrump])
    func staleRowsAmongABulkSaveAreSettledOneByOne(store: TestStore, policy: MergePolicy) async throws {
        let container = try await makeContainer(store)
        try await insertItems(1...8, in: container)
        let x = container.newBackgroundContext(name: "X")
        await x.setMergePolicy(policy)
        let ids = try await x.perform { try $0.fetch(FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)])).map(\.objectID) }
        try await container.performBackgroundTask { context in
            try context.existingObject(with: ids[2])[Item.title] = "changed by Y"   // item 3, which X updates
            try context.existingObject(with: ids[5])[Item.title] = "changed by Y"   // item 6, which X deletes
            try context.delete(try context.existingObject(with: ids[6]))            // item 7, which X deletes too
            try await context.save()
        }
        let outcome: Result<Void, any Error> = await x.perform { context in
            do {
                for id in ids[0..<4] { try context.existingObject(with: id)[Item.score] = 1 }
                for id in ids[4..<8] { try context.delete(try context.existingObject(with: id)) }
                try await context.save()
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        let stored = try await container.newBackgroundContext().perform { context in
            try context.fetch(FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)])).map { ($0[Item.uid], $0[Item.title], $0[Item.score]) }
        }
        switch (policy, outcome) {
        case (.error, .failure(SaveError.conflicts(let conflicts))):
            #expect(conflicts.map(\.objectID) == [ids[2], ids[5]])
            #expect(stored.map(\.0) == [1, 2, 3, 4, 5, 6, 8] && stored.allSatisfy { $0.2 == nil })
        case (.mergeByPropertyObjectTrump, .success):
            #expect(stored.map(\.0) == [1, 2, 3, 4] && stored.allSatisfy { $0.2 == 1 })
            #expect(stored.map(\.1) == ["item 1", "item 2", "changed by Y", "item 4"])
        default:
            Issue.record("\(policy): \(outcome)")
        }
    }

    /// A store with item 1, and a context X under `policy` that has read it.
    private func storeReadByX(_ store: TestStore, under policy: MergePolicy) async throws -> (PersistentContainer, ObjectContext, ObjectID) {
        let container = try await makeContainer(store)
        try await insertItems([1], in: container)
        let x = container.newBackgroundContext(name: "X")
        await x.setMergePolicy(policy)
        let id = try await x.perform { try $0.fetch(FetchRequest(Item.self))[0].objectID }
        return (container, x, id)
    }
}
