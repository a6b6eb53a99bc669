import Foundation
import StillpointCore
import Testing

// The examples of the Typed Predicates article's "One entity's keys only" (StillpointCore.docc/TypedPredicates.md),
// compiled here inside a namespace, so that its Notebook and Note are the article's.

enum ArticleNotebooks {
    enum Notebook: Entity {
        static let title = Attribute<String>("title")
        static let notes = ToMany<Note>("notes", inverse: "notebook")
        static let entity = EntityDescription("Notebook", attributes: [title], relationships: [notes])
    }

    enum Note: Entity {
        static let words = Attribute<Int>("words", default: 0)
        static let notebook = ToOne<Notebook>("notebook", inverse: "notes")
        static let entity = EntityDescription("Note", attributes: [words], relationships: [notebook])
    }

    static func requests() -> [FetchRequest] {
        let busy = FetchRequest(Notebook.self, matching: { $0.notes.count > 2 })
        let long = FetchRequest(Notebook.self, matching: { $0.notes.any { $0.words >= 500 } && $0.title.beginsWith("Y") })
        let inYoga = FetchRequest(Note.self, matching: { $0.notebook.title == "Yoga" && $0.words > 0 },
                                  sortedBy: [.descending(Note.words)], limit: 10)
        return [busy, long, inYoga]
    }

    static func kept() -> FetchRequest {
        let longNote = TypedPredicate<Note> { $0.words >= 500 }
        let request = FetchRequest(Notebook.self, matching: { $0.notes.any { longNote && !$0.notebook.isNil } })
        return request
    }

    /// The typed objects' example; returns what it printed.
    static func typedObjects(_ context: isolated ObjectContext) throws -> [String] {
        var printed: [String] = []
        func print(_ title: String, _ words: Int) { printed.append("\(title) \(words)") }
        let notebooks = try context.fetch(Notebook.self, matching: { $0.notes.count > 2 }, sortedBy: [.ascending(Notebook.title)])
        for notebook in notebooks {
            let words = try notebook.notes.reduce(0) { $0 + $1.words }
            print(notebook.title, words)
        }
        let note = context.insertTyped(Note.self)
        note.words = 120
        try note.object.set(Note.notebook, to: notebooks.first?.object)
        return printed
    }
}

@Suite("Typed requests article")
struct TypedRequestsArticleTests {
    typealias Notebook = ArticleNotebooks.Notebook
    typealias Note = ArticleNotebooks.Note

    @Test func eachRequestMeansTheFormatTheArticleGives() throws {
        let formats = ["notes.@count > 2", "SUBQUERY(notes, $notes, $notes.words >= 500).@count > 0 AND title BEGINSWITH 'Y'",
                       "notebook.title == 'Yoga' AND words > 0"]
        #expect(ArticleNotebooks.requests().map(\.predicate) == (try formats.map { try FetchPredicate($0) }))
        #expect(ArticleNotebooks.requests()[2].limit == 10)
        #expect(ArticleNotebooks.kept().predicate
                == (try FetchPredicate("SUBQUERY(notes, $notes, $notes.words >= 500 AND NOT $notes.notebook == nil).@count > 0")))
    }

    @Test(arguments: TestStore.all) func typedObjectsReadTheirAttributesAndRelationships(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: [Notebook.self, Note.self])
        try await container.performBackgroundTask { context in
            for (title, words) in [("Yoga", [100, 200, 300]), ("Sits", [50])] {
                let notebook = context.insertTyped(Notebook.self)
                notebook.title = title
                for count in words {
                    let note = context.insertTyped(Note.self)
                    note.words = count
                    try note.object.set(Note.notebook, to: notebook.object)
                }
            }
            try await context.save()
        }
        try await container.newBackgroundContext().perform { context throws in
            #expect(try ArticleNotebooks.typedObjects(context) == ["Yoga 600"])
            let yoga = try context.fetch(Notebook.self, matching: { $0.title == "Yoga" })
            #expect(try yoga.first?.notes.count == 4)
            let added = try context.fetch(Note.self, matching: { $0.words == 120 })
            #expect(try added.first?.notebook?.title == "Yoga")
            #expect(TypedObject<Note>(try #require(yoga.first).object) == nil)
        }
    }
}
