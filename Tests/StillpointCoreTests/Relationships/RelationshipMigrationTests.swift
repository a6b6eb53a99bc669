import Foundation
@testable import StillpointCore
import Testing

/// A column that held row ids becomes a relationship: its foreign key is added, and references to rows that are
/// gone are cleared on the way (a foreign key could not hold over them).
@Suite("Relationships over existing stores")
struct RelationshipMigrationTests {
    enum NumberedBatch: Entity {
        static let entityName = "Batch"
        static let name = Attribute<String>("name")
        static let entity = EntityDescription("Batch", attributes: [name])
    }

    enum NumberedEntry: Entity {
        static let entityName = "Entry"
        static let title = Attribute<String>("title")
        static let minutes = Attribute<Int>("minutes", default: 0)
        static let batch = Attribute<Int64?>("batch")
        static let entity = EntityDescription("Entry", attributes: [title, minutes, batch], indexes: [IndexDescription([batch])])
    }

    @Test(arguments: TestStore.shareable) func aColumnOfRowIDsBecomesARelationshipWithItsForeignKey(store: TestStore) async throws {
        let location = try await store.makeLocation()
        let before = try openContainer(schema: try Schema([NumberedBatch.self, NumberedEntry.self]), location: location)
        try await before.performBackgroundTask { context in
            let batch = context.insert(NumberedBatch.self)
            batch[NumberedBatch.name] = "kept"
            try await context.save()
            for (title, id) in [("linked", batch.objectID.rowID), ("orphan", 9_999)] {
                let entry = context.insert(NumberedEntry.self)
                entry[NumberedEntry.title] = title
                entry[NumberedEntry.batch] = id
            }
            try await context.save()
        }
        try before.close()

        let after = try openContainer(schema: try Schema(relationshipEntities), location: location)
        try await after.performBackgroundTask { context in
            let entries = Dictionary(uniqueKeysWithValues: try context.fetch(FetchRequest(Entry.self)).map { ($0[Entry.title], $0) })
            #expect(try entries["linked"]?[Entry.batch]?[Batch.name] == "kept")
            #expect(try entries["orphan"]?[Entry.batch] == nil)
            try entries["orphan"]?.setValue(.integer(9_999), forKey: "batch")
            await #expect(throws: SaveError.self) { try await context.save() }
        }
        try after.close()
        // Opened again, the store is up to date: nothing left to do.
        let again = try openContainer(schema: try Schema(relationshipEntities), location: location)
        let linked = try await again.performBackgroundTask { context in
            try context.count(for: FetchRequest(Entry.self, predicate: try FetchPredicate("batch.name == 'kept'")))
        }
        #expect(linked == 1)
    }

    enum ColoredTopic: Entity {
        static let entityName = "Topic"
        static let name = Attribute<String>("name")
        static let color = Attribute<String>("color")
        static let articles = ToMany<Article>("articles", inverse: "topics", deleteRule: .deny)
        static let entity = EntityDescription("Topic", attributes: [name, color], relationships: [articles])
    }

    enum ColoredBatch: Entity {
        static let entityName = "Batch"
        static let name = Attribute<String>("name")
        static let color = Attribute<String>("color")
        static let entries = ToMany<Entry>("entries", inverse: "batch", deleteRule: .cascade)
        static let entity = EntityDescription("Batch", attributes: [name, color], relationships: [entries])
    }

    /// Dropping a required attribute makes SQLite rebuild the table: the rows that refer to it, links of a
    /// many-to-many and to-one references alike, stay as they were.
    @Test(arguments: TestStore.shareable) func rebuildingAReferencedTableKeepsWhatRefersToIt(store: TestStore) async throws {
        let location = try await store.makeLocation()
        let before = try openContainer(schema: try Schema([Article.self, ColoredTopic.self, ColoredBatch.self, Entry.self, Person.self, Pass.self]),
                                       location: location)
        try await before.performBackgroundTask { context in
            let topic = context.insert(ColoredTopic.self)
            topic[ColoredTopic.name] = "swift"
            topic[ColoredTopic.color] = "orange"
            let article = context.insert(Article.self)
            article[Article.title] = "a"
            try article.add(topic, to: Article.topics)
            let batch = context.insert(ColoredBatch.self)
            batch[ColoredBatch.name] = "morning"
            batch[ColoredBatch.color] = "blue"
            let entry = context.insert(Entry.self)
            entry[Entry.title] = "sit"
            try entry.set(Entry.batch, to: batch)
            try await context.save()
        }
        try before.close()

        let after = try openContainer(schema: try Schema([Article.self, Topic.self, Batch.self, Entry.self, Person.self, Pass.self]), location: location)
        try await after.performBackgroundTask { context in
            let article = try #require(try context.fetch(FetchRequest(Article.self)).first)
            #expect(try article[Article.topics].map { $0[Topic.name] } == ["swift"])
            let entry = try #require(try context.fetch(FetchRequest(Entry.self)).first)
            #expect(try entry[Entry.batch]?[Batch.name] == "morning")
        }
    }
}
