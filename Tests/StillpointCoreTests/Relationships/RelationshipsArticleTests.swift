import Foundation
import StillpointCore
import Testing

// The examples of the Relationships article (StillpointCore.docc/Relationships.md), compiled here against the
// public API; a test checks that every example of the article is in this file, line for line.

enum Retreat: Entity {
    static let name = Attribute<String>("name")
    static let talks = ToMany<Talk>("talks", inverse: "retreat", deleteRule: .cascade)
    static let entity = EntityDescription("Retreat", attributes: [name], relationships: [talks])
}

enum Talk: Entity {
    static let title = Attribute<String>("title")
    static let minutes = Attribute<Int>("minutes", default: 0)
    static let retreat = ToOne<Retreat>("retreat", inverse: "talks")
    static let entity = EntityDescription("Talk", attributes: [title, minutes], relationships: [retreat])
}

private func planRetreat(_ context: isolated ObjectContext) async throws -> (talks: [ManagedObject], talk: ManagedObject) {
    let retreat = context.insert(Retreat.self)
    retreat[Retreat.name] = "Winter sesshin"
    let talk = context.insert(Talk.self)
    talk[Talk.title] = "Beginner's mind"
    try talk.set(Talk.retreat, to: retreat)
    let talks = try retreat[Retreat.talks]          // [talk]: the inverse follows at once
    try retreat.remove(talk, from: Retreat.talks)   // talk's retreat is nil again
    try retreat.add(talk, to: Retreat.talks)
    try await context.save()
    return (talks, talk)
}

private func endRetreat(_ context: ObjectContext) async throws -> BatchResult {
    let result = try await context.batchDelete(FetchRequest(Retreat.self, predicate: try FetchPredicate("name == 'Winter sesshin'")))
    return result
}

private func talksWithTheirRetreats(_ context: isolated ObjectContext) throws -> [ManagedObject] {
    var request = FetchRequest(Talk.self, sortedBy: [.ascending(Talk.title)])
    request.prefetchedRelationships = ["retreat"]
    let prefetched = try context.fetch(request)
    return prefetched
}

private func predicates() throws -> [FetchPredicate] {
    let long = try FetchPredicate("ANY talks.minutes > %@", 45)
    let busy = try FetchPredicate("talks.@count >= 3 AND talks.@sum.minutes > 300")
    let winter = try FetchPredicate("retreat.name BEGINSWITH[c] %@", "winter")
    let beginners = try FetchPredicate("SUBQUERY(talks, $t, $t.minutes > 45 AND $t.title BEGINSWITH[c] %@).@count >= 1", "beginner")
    return [long, busy, winter, beginners]
}

private func minutesPerRetreat(_ context: isolated ObjectContext) throws -> [[String: AttributeValue]] {
    var minutesByRetreat = FetchRequest(Talk.self)
    minutesByRetreat.properties = [.attribute("retreat.name"), .aggregate(.sum, of: "minutes", as: "minutes")]
    minutesByRetreat.groupBy = ["retreat.name"]
    let rows = try context.fetchDictionaries(minutesByRetreat)
    return rows
}

@Suite("Relationships article")
struct RelationshipsArticleTests {
    @Test func everyExampleOfTheArticleIsCompiledHere() throws {
        let (blocks, missing) = try ArticleExamples.blocks(of: "Relationships.md", missingFrom: #filePath)
        #expect(blocks.count >= 6)
        #expect(missing.isEmpty, "examples of Relationships.md not compiled in this file:\n\(missing.joined(separator: "\n"))")
    }

    @Test(arguments: TestStore.all) func theExamplesDoWhatTheArticleSays(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: [Retreat.self, Talk.self])
        let context = container.newBackgroundContext()
        try await context.perform { context in
            let (talks, talk) = try await planRetreat(context)
            #expect(talks.map(\.objectID) == [talk.objectID])
            talk[Talk.minutes] = 50
            try await context.save()
        }
        try await container.newBackgroundContext().perform { context in
            let talks = try talksWithTheirRetreats(context)
            #expect(talks.count == 1)
            let matches = try predicates().map { predicate in
                try context.count(for: FetchRequest(predicate.referencedKeys.contains { $0.hasPrefix("retreat") } ? Talk.entity : Retreat.entity, predicate: predicate))
            }
            #expect(matches == [1, 0, 1, 1])
            #expect(try minutesPerRetreat(context) == [["retreat.name": .string("Winter sesshin"), "minutes": .integer(50)]])
        }
        #expect(try await endRetreat(context).count == 1)
        try await context.perform { context throws in
            #expect(try context.count(for: FetchRequest(Talk.self)) == 0)
        }
    }
}
