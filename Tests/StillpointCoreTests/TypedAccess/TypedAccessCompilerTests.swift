import Foundation
import Testing

/// Proves with the compiler that a typed request takes its own entity's attributes and relationships only.
@Suite("Typed access checked by the compiler")
struct TypedAccessCompilerTests {
    static let prelude = """
        import StillpointCore
        enum Notebook: Entity {
            static let title = Attribute<String>("title")
            static let notes = ToMany<Note>("notes", inverse: "notebook")
            static let entity = EntityDescription("Notebook", attributes: [title], relationships: [notes])
        }
        enum Note: Entity {
            static let words = Attribute<Int>("words")
            static let notebook = ToOne<Notebook>("notebook", inverse: "notes")
            static let entity = EntityDescription("Note", attributes: [words], relationships: [notebook])
        }

        """

    @Test func anotherEntitysAttributeDoesNotCompile() throws {
        let diagnostics = try typecheck("let request = FetchRequest(Notebook.self, matching: { $0.words > 100 })")
        #expect(diagnostics.contains("error: type 'Notebook' has no member 'words'"), "\(diagnostics)")
    }

    @Test func anotherEntitysAttributeNamedByItsTypeDoesNotCompile() throws {
        let diagnostics = try typecheck("let request = FetchRequest(Notebook.self, matching: { $0.title == \"x\" && Note.words > 100 })")
        #expect(diagnostics.contains("error:"), "\(diagnostics)")
        #expect(diagnostics.contains("TypedPredicate<Notebook>"), "\(diagnostics)")
    }

    @Test func theOuterEntitysAttributeInsideAnyDoesNotCompile() throws {
        let diagnostics = try typecheck("let request = FetchRequest(Notebook.self, matching: { $0.notes.any { $0.title == \"x\" } })")
        #expect(diagnostics.contains("error: type 'Note' has no member 'title'"), "\(diagnostics)")
    }

    @Test func aPredicateOfAnotherEntityDoesNotJoin() throws {
        let diagnostics = try typecheck("""
            let long = TypedPredicate<Note> { $0.words > 100 }
            let request = FetchRequest(Notebook.self, matching: { $0.notes.count > 2 && long })
            """)
        #expect(diagnostics.contains("error:"), "\(diagnostics)")
    }

    @Test func theSameRequestsWithTheirOwnKeysCompile() throws {
        let diagnostics = try typecheck("""
            let long = TypedPredicate<Note> { $0.words > 100 }
            let busy = FetchRequest(Notebook.self, matching: { $0.notes.count > 2 && $0.notes.any { long && $0.words < 900 } })
            let inYoga = FetchRequest(Note.self, matching: { $0.notebook.title == "Yoga" && $0.notebook.notes.count > 1 })
            """)
        #expect(!diagnostics.contains("error:") && !diagnostics.contains("warning:"), "\(diagnostics)")
    }

    private func typecheck(_ source: String) throws -> String {
        try CompilerCheck.typecheck(Self.prelude + source)
    }
}
