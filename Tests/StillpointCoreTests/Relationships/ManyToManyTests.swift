import Foundation
@testable import StillpointCore
import Testing

/// Articles have topics and topics have articles; a topic can't be deleted while articles have it.
enum Article: Entity {
    static let title = Attribute<String>("title")
    static let topics = ToMany<Topic>("topics", inverse: "articles")
    static let entity = EntityDescription("Article", attributes: [title], relationships: [topics])
}

enum Topic: Entity {
    static let name = Attribute<String>("name")
    static let articles = ToMany<Article>("articles", inverse: "topics", deleteRule: .deny)
    static let entity = EntityDescription("Topic", attributes: [name], relationships: [articles])
}

/// Deleting an album deletes its photos, wherever else they are.
enum Album: Entity {
    static let name = Attribute<String>("name")
    static let photos = ToMany<Photo>("photos", inverse: "albums", deleteRule: .cascade)
    static let entity = EntityDescription("Album", attributes: [name], relationships: [photos])
}

enum Photo: Entity {
    static let file = Attribute<String>("file")
    static let albums = ToMany<Album>("albums", inverse: "photos")
    static let entity = EntityDescription("Photo", attributes: [file], relationships: [albums])
}

@Suite("Many-to-many relationships")
struct ManyToManyTests {
    private func container(_ store: TestStore) async throws -> PersistentContainer {
        try await makeContainer(store, entities: [Article.self, Topic.self, Album.self, Photo.self])
    }

    private static func names(_ objects: [ManagedObject], _ key: String) throws -> [String] {
        try objects.map { try $0.value(forKey: key).description }.sorted()
    }

    /// Articles a (swift, sql), b (sql), c (none); topics swift, sql, empty.
    private func fixture(_ container: PersistentContainer) async throws {
        try await container.performBackgroundTask { context in
            var topics: [String: ManagedObject] = [:]
            for name in ["swift", "sql", "empty"] {
                topics[name] = context.insert(Topic.self)
                topics[name]?[Topic.name] = name
            }
            for (title, names) in [("a", ["swift", "sql"]), ("b", ["sql"]), ("c", [])] {
                let article = context.insert(Article.self)
                article[Article.title] = title
                for name in names { try article.add(try #require(topics[name]), to: Article.topics) }
            }
            try await context.save()
        }
    }

    @Test func theSchemaAddsOneLinkTablePerPair() throws {
        let schema = try Schema([Article.self, Topic.self])
        #expect(schema.entities.map(\.name) == ["Article", "Topic", "_Article_topics"])
    }

    @Test(arguments: TestStore.all) func bothSidesShowTheLinksBeforeAndAfterTheSave(store: TestStore) async throws {
        let container = try await container(store)
        try await fixture(container)
        try await container.newBackgroundContext().perform { context throws in
            let articles = Dictionary(uniqueKeysWithValues: try context.fetch(FetchRequest(Article.self)).map { ($0[Article.title], $0) })
            let topics = Dictionary(uniqueKeysWithValues: try context.fetch(FetchRequest(Topic.self)).map { ($0[Topic.name], $0) })
            let (a, c) = (try #require(articles["a"]), try #require(articles["c"]))
            #expect(try Self.names(a[Article.topics], "name") == ["\"sql\"", "\"swift\""])
            #expect(try Self.names(try #require(topics["sql"])[Topic.articles], "title") == ["\"a\"", "\"b\""])

            // From the other side, and twice: one link.
            try #require(topics["swift"]).add(c, to: Topic.articles)
            try #require(topics["swift"]).add(c, to: Topic.articles)
            try a.remove(try #require(topics["sql"]), from: Article.topics)
            #expect(try Self.names(c[Article.topics], "name") == ["\"swift\""])
            #expect(try Self.names(try #require(topics["swift"])[Topic.articles], "title") == ["\"a\"", "\"c\""])
            try await context.save()
        }
        try await container.newBackgroundContext().perform { context throws in
            let topics = Dictionary(uniqueKeysWithValues: try context.fetch(FetchRequest(Topic.self)).map { ($0[Topic.name], $0) })
            #expect(try Self.names(try #require(topics["swift"])[Topic.articles], "title") == ["\"a\"", "\"c\""])
            #expect(try Self.names(try #require(topics["sql"])[Topic.articles], "title") == ["\"b\""])
        }
    }

    @Test(arguments: TestStore.all) func newObjectsAreLinkedInTheSaveThatInsertsThem(store: TestStore) async throws {
        let container = try await container(store)
        try await container.performBackgroundTask { context in
            let photo = context.insert(Photo.self)
            photo[Photo.file] = "dawn.jpg"
            let album = context.insert(Album.self)
            album[Album.name] = "Retreat"
            try photo.add(album, to: Photo.albums)
            try await context.save()
        }
        try await container.newBackgroundContext().perform { context throws in
            let album = try #require(try context.fetch(FetchRequest(Album.self)).first)
            #expect(try album[Album.photos].map { $0[Photo.file] } == ["dawn.jpg"])
        }
    }

    @Test(arguments: TestStore.all) func predicatesFollowTheLinksInTheStoreAndInMemory(store: TestStore) async throws {
        let container = try await container(store)
        try await fixture(container)
        let cases: [(EntityDescription, String, String, [String])] = [
            (Article.entity, "title", "ANY topics.name == 'sql'", ["a", "b"]),
            (Article.entity, "title", "topics.@count == 0", ["c"]),
            (Article.entity, "title", "NONE topics.name == 'swift'", ["b", "c"]),
            (Topic.entity, "name", "articles.@count >= 2", ["sql"]),
            (Topic.entity, "name", "ANY articles.title == 'a' AND name BEGINSWITH 's'", ["sql", "swift"]),
        ]
        try await container.newBackgroundContext().perform { context throws in
            for (entity, key, format, expected) in cases {
                let predicate = try FetchPredicate(format)
                let fromStore = try context.fetch(FetchRequest(entity, predicate: predicate))
                #expect(try Self.names(fromStore, key) == expected.map { "\"\($0)\"" }, "SQL: \(format)")
                let inMemory = try context.fetch(FetchRequest(entity)).filter { try context.graph.matches($0, predicate) }
                #expect(try Self.names(inMemory, key) == Self.names(fromStore, key), "evaluator: \(format)")
            }
        }
    }

    @Test(arguments: TestStore.all) func deleteRulesFollowTheLinks(store: TestStore) async throws {
        let container = try await container(store)
        try await fixture(container)
        try await container.newBackgroundContext().perform { context throws in
            // Deny: a topic with articles stays until they let go of it.
            let sql = try #require(try context.fetch(FetchRequest(Topic.self, predicate: try FetchPredicate("name == 'sql'"))).first)
            try context.delete(sql)
            await #expect(throws: SaveError.self) { try await context.save() }
            context.rollback()
            // Nullify (an article's side): deleting an article deletes its links only.
            let a = try #require(try context.fetch(FetchRequest(Article.self, predicate: try FetchPredicate("title == 'a'"))).first)
            try context.delete(a)
            try await context.save()
            #expect(try Self.names(sql[Topic.articles], "title") == ["\"b\""])

            // Cascade: an album takes its photos, and their links to other albums, with it.
            let (trip, best) = (context.insert(Album.self), context.insert(Album.self))
            trip[Album.name] = "trip"
            best[Album.name] = "best"
            let photo = context.insert(Photo.self)
            photo[Photo.file] = "summit.jpg"
            try trip.add(photo, to: Album.photos)
            try best.add(photo, to: Album.photos)
            try await context.save()
            try context.delete(trip)
            #expect(photo.isDeleted)
            try await context.save()
            #expect(try best[Album.photos].isEmpty)
        }
        try await container.newBackgroundContext().perform { context throws in
            #expect(try context.count(for: FetchRequest(Photo.self)) == 0)
            #expect(try context.count(for: FetchRequest(Album.self)) == 1)
        }
    }

    @Test(arguments: TestStore.all) func batchDeletesRemoveTheLinksAndHonourDeny(store: TestStore) async throws {
        let container = try await container(store)
        try await fixture(container)
        let context = container.newBackgroundContext()
        let denied = await #expect(throws: SaveError.self) { try await context.batchDelete(FetchRequest(Topic.self)) }
        guard case .validation(let failures)? = denied else { Issue.record("expected a validation error"); return }
        #expect(failures.map(\.reason) == [.deleteDenied(relationship: "articles", related: 2)])

        let result = try await context.batchDelete(FetchRequest(Article.self, predicate: try FetchPredicate("ANY topics.name == 'swift'")))
        #expect(result.count == 1)
        try await context.perform { context throws in
            let sql = try #require(try context.fetch(FetchRequest(Topic.self, predicate: try FetchPredicate("name == 'sql'"))).first)
            #expect(try Self.names(sql[Topic.articles], "title") == ["\"b\""])
        }
        let emptied = try await context.batchDelete(FetchRequest(Topic.self, predicate: try FetchPredicate("articles.@count == 0")))
        #expect(emptied.count == 2)
    }
}
