import Foundation
@testable import StillpointCore
import Testing

/// The golden conflict case of a to-many: batches P {e1, e2}, Q {e3} and R {}. X reads them; Y moves e1 to Q and
/// e3 to P, and saves; X moves e1 and e2 to R, and saves under each policy. A to-many is its members' to-one, so
/// the conflict is e1's, resolved as an attribute's would be; e2's move, which nobody else made, goes through.
@Suite("Merge policies on relationships")
struct RelationshipMergePolicyTests {
    /// The policy, then the members of P, Q and R in the store afterwards (`nil` outcome: X's save fails).
    static let goldenCases: [(policy: MergePolicy, saves: Bool, members: [String: [String]])] = [
        (.error, false, ["P": ["e2", "e3"], "Q": ["e1"], "R": []]),
        (.mergeByPropertyStoreTrump, true, ["P": ["e3"], "Q": ["e1"], "R": ["e2"]]),
        (.mergeByPropertyObjectTrump, true, ["P": ["e3"], "Q": [], "R": ["e1", "e2"]]),
        (.overwrite, true, ["P": ["e3"], "Q": [], "R": ["e1", "e2"]]),
        (.rollback, true, ["P": ["e3"], "Q": ["e1"], "R": ["e2"]]),
    ]

    @Test(arguments: TestStore.all, goldenCases)
    func goldenConflictOnAToMany(store: TestStore, golden: (policy: MergePolicy, saves: Bool, members: [String: [String]])) async throws {
        let (policy, saves, expected) = golden
        let container = try await makeContainer(store, entities: relationshipEntities)
        try await container.performBackgroundTask { context in
            var batches: [String: ManagedObject] = [:]
            for name in ["P", "Q", "R"] {
                batches[name] = context.insert(Batch.self)
                batches[name]?[Batch.name] = name
            }
            for (title, batch) in [("e1", "P"), ("e2", "P"), ("e3", "Q")] {
                let entry = context.insert(Entry.self)
                entry[Entry.title] = title
                try entry.set(Entry.batch, to: batches[batch])
            }
            try await context.save()
        }
        let x = container.newBackgroundContext(name: "X")
        await x.setMergePolicy(policy)
        try await x.perform { context in _ = try Self.members(in: context) }
        try await container.newBackgroundContext(name: "Y").perform { context in
            let (batches, entries) = try Self.objects(in: context)
            try entries["e1"]?.set(Entry.batch, to: batches["Q"])
            try entries["e3"]?.set(Entry.batch, to: batches["P"])
            try await context.save()
        }
        let outcome: Result<[String: [String]], any Error> = await x.perform { context in
            do {
                // The objects X read before Y saved: fetching again would bring the unchanged ones up to date.
                let (batches, entries) = Self.held(in: context)
                try batches["R"]?.add(try #require(entries["e1"]), to: Batch.entries)
                try batches["R"]?.add(try #require(entries["e2"]), to: Batch.entries)
                try await context.save()
                return .success(try Self.members(in: context))
            } catch {
                return .failure(error)
            }
        }
        switch outcome {
        case .success(let members):
            #expect(saves, "\(policy): X's save went through")
            #expect(members == expected, "\(policy): X's view after its save")
        case .failure(let error):
            #expect(!saves, "\(policy): \(error)")
            guard case SaveError.conflicts(let conflicts) = error else { Issue.record("\(error)"); return }
            #expect(conflicts.count == 1)
            let conflict = try #require(conflicts.first?.attributes.first { $0.name == "batch" })
            #expect(conflict.objectValue != conflict.storeValue && conflict.readValue != conflict.storeValue)
        }
        let stored = try await container.newBackgroundContext().perform { try Self.members(in: $0) }
        #expect(stored == expected, "\(policy): the store")
    }

    private static func objects(in context: isolated ObjectContext) throws -> ([String: ManagedObject], [String: ManagedObject]) {
        let batches = try context.fetch(FetchRequest(Batch.self)).map { ($0[Batch.name], $0) }
        let entries = try context.fetch(FetchRequest(Entry.self)).map { ($0[Entry.title], $0) }
        return (Dictionary(uniqueKeysWithValues: batches), Dictionary(uniqueKeysWithValues: entries))
    }

    private static func held(in context: isolated ObjectContext) -> ([String: ManagedObject], [String: ManagedObject]) {
        let objects = context.registeredObjects
        let batches = objects.filter { $0.entity.name == "Batch" }.map { ($0[Batch.name], $0) }
        let entries = objects.filter { $0.entity.name == "Entry" }.map { ($0[Entry.title], $0) }
        return (Dictionary(uniqueKeysWithValues: batches), Dictionary(uniqueKeysWithValues: entries))
    }

    private static func members(in context: isolated ObjectContext) throws -> [String: [String]] {
        let (batches, _) = try objects(in: context)
        return try batches.mapValues { batch in try batch[Batch.entries].map { $0[Entry.title] }.sorted() }
    }
}
