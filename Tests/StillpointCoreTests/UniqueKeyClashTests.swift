import Foundation
import Testing
@testable import StillpointCore

/// An entity with two uniqueness constraints, one of them on an optional attribute.
private enum Badge: Entity {
    static let code = Attribute<String?>("code")
    static let name = Attribute<String>("name")
    static let rank = Attribute<Int>("rank", default: 0)
    static let entity = EntityDescription("Badge", attributes: [code, name, rank],
                                          indexes: [IndexDescription([code], isUnique: true), IndexDescription([name], isUnique: true)])
}

/// Which stored row a new row's unique key repeats, for saves and batch inserts alike.
@Suite("Unique key clashes")
struct UniqueKeyClashTests {
    private func makeBadges(_ store: TestStore, _ rows: [[String: AttributeValue]]) async throws -> PersistentContainer {
        let container = try await makeContainer(store, entities: [Badge.self])
        _ = try await container.performBackgroundTask { try await $0.batchInsert(Badge.entity, rows: rows) }
        return container
    }

    private func storedRows(_ container: PersistentContainer) async throws -> [[String: AttributeValue]] {
        try await container.newBackgroundContext().perform { context in
            try context.fetchDictionaries(FetchRequest(Badge.self, sortedBy: [.ascending(Badge.name)])).map { $0.filter { $0.key != "code" } }
        }
    }

    /// Nulls never clash: the row found is the one whose name is taken, not the first with a null code.
    @Test(arguments: TestStore.all) func aNullKeyIsNotAClash(store: TestStore) async throws {
        let container = try await makeBadges(store, [["name": .string("a"), "rank": .integer(1)], ["name": .string("b"), "rank": .integer(2)]])
        try await container.performBackgroundTask { context in
            context.setMergePolicy(.mergeByPropertyObjectTrump)
            try await context.batchInsert(Badge.entity, rows: [["name": .string("b"), "rank": .integer(20)]])
            let badge = context.insert(Badge.self)
            badge[Badge.name] = "a"
            badge[Badge.rank] = 10
            try await context.save()
        }
        #expect(try await storedRows(container) == [["name": .string("a"), "rank": .integer(10)], ["name": .string("b"), "rank": .integer(20)]])
    }

    /// An upsert whose values repeat a second row's key cannot make two rows one: a validation failure, nothing written.
    @Test(arguments: TestStore.all) func anUpsertOntoTwoRowsFails(store: TestStore) async throws {
        let container = try await makeBadges(store, [["code": .string("x"), "name": .string("a")], ["code": .string("y"), "name": .string("b")]])
        let before = try await storedRows(container)
        let clashing: [String: AttributeValue] = ["code": .string("x"), "name": .string("b")]
        for policy in [MergePolicy.mergeByPropertyObjectTrump, .overwrite] {
            await #expect(throws: SaveError.self, "batch insert, \(policy)") {
                try await container.performBackgroundTask { context in
                    context.setMergePolicy(policy)
                    try await context.batchInsert(Badge.entity, rows: [clashing])
                }
            }
            await #expect(throws: SaveError.self, "save, \(policy)") {
                try await container.performBackgroundTask { context in
                    context.setMergePolicy(policy)
                    let badge = context.insert(Badge.self)
                    badge[Badge.code] = "x"
                    badge[Badge.name] = "b"
                    try await context.save()
                }
            }
        }
        #expect(try await storedRows(container) == before)
    }

    @Test(arguments: TestStore.all) func aClashWithinOneBatchNamesNoStoredRow(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: [Badge.self])
        let error = await #expect(throws: SaveError.self) {
            try await container.performBackgroundTask { context in
                try await context.batchInsert(Badge.entity, rows: [["name": .string("a")], ["name": .string("a")]])
            }
        }
        guard case .validation(let failures)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(failures.count == 1 && failures[0].objectID.isTemporary)
        #expect(failures[0].reason == .uniquenessViolation(attributes: ["name"], values: [.string("a")]))
        #expect(try await storedRows(container).isEmpty)
    }
}
