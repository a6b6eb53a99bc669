import Foundation
import Testing
@testable import StillpointCore

/// An entity without `uid`, and with a `title` of another type than `Item.title`.
enum Note: Entity {
    static let text = Attribute<String>("text", default: "")
    static let title = Attribute<Int?>("title")
    static let entity = EntityDescription("Note", attributes: [text, title])
}

/// A typed attribute of another entity used on an object (`note[Item.uid]`) compiles, as objects are not typed
/// by entity: it must not stop the process. It reads a default, writes nothing, and the next save says so.
@Suite("Attributes of another entity")
struct ForeignAttributeTests {
    static func misuses(_ attributes: [String], _ error: SaveError?) -> Bool {
        guard case .validation(let failures)? = error else { return false }
        return failures.map(\.reason) == attributes.map { .attributeOfAnotherEntity(attribute: $0) }
    }

    @Test(arguments: TestStore.all) func anotherEntitysAttributeReadsADefaultAndFailsTheNextSave(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: [Item.self, Note.self])
        let context = container.newBackgroundContext()
        let read = await context.perform { context in
            let note = context.insert(Note.self)
            note[Note.text] = "breathe"
            note[Item.uid] = 7                     // dropped: Note has no uid
            return (note[Item.uid], note[Item.title], note[Item.score])
        }
        #expect(read.0 == 0 && read.1 == "" && read.2 == nil)
        let error = await #expect(throws: SaveError.self) { try await context.perform { try await $0.save() } }
        #expect(Self.misuses(["uid", "score"], error))
        #expect(error?.description.contains("a typed attribute 'uid' was read or set on it, which Note does not have") == true)
        #expect(try container.integer("SELECT COUNT(*) FROM \"Note\"") == 0)
        // It stays refused until the context rolls back; then the context saves again.
        await #expect(throws: SaveError.self) { try await context.perform { try await $0.save() } }
        let saved = try await context.perform { context in
            context.rollback()
            context.insert(Note.self)[Note.text] = "again"
            return try await context.save()?.inserted.count
        }
        #expect(saved == 1)
    }

    /// Same name, another type: `Item.title` (text) on a Note, whose `title` is an integer.
    @Test(arguments: TestStore.all) func anAttributeOfTheSameNameAndAnotherTypeIsRefusedToo(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: [Item.self, Note.self])
        let context = container.newBackgroundContext()
        let title = await context.perform { context in
            let note = context.insert(Note.self)
            note[Note.title] = 3
            note[Item.title] = "not a number"       // dropped: Note.title holds integers
            return (note[Item.title], note[Note.title])
        }
        #expect(title.0 == "" && title.1 == 3)
        let error = await #expect(throws: SaveError.self) { try await context.perform { try await $0.save() } }
        #expect(Self.misuses(["title"], error))
        #expect(try container.integer("SELECT COUNT(*) FROM \"Note\"") == 0)
    }

    @Test(arguments: TestStore.all) func valueOfThrowsAtOnce(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: [Item.self, Note.self])
        let (text, saved) = try await container.performBackgroundTask { context in
            let note = context.insert(Note.self)
            note[Note.text] = "breathe"
            let text = try note.value(of: Note.text)
            #expect(throws: SchemaError.self) { try note.value(of: Item.uid) }
            #expect(throws: SchemaError.self) { try note.value(of: Item.title) }
            // Nothing was misused through the subscript: the save goes through.
            return (text, try await context.save()?.inserted.count)
        }
        #expect(text == "breathe" && saved == 1)
    }
}
