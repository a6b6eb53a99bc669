import Foundation
import Testing

/// Proves with the compiler that a managed object cannot cross contexts, while its ObjectID can.
@Suite("Context isolation")
struct ContextIsolationTests {
    static let prelude = """
        import StillpointCore
        enum Item: Entity {
            static let uid = Attribute<Int32>("uid")
            static let entity = EntityDescription("Item", attributes: [uid])
        }

        """

    @Test func capturingAManagedObjectInAnotherContextDoesNotCompile() throws {
        let diagnostics = try typecheck("""
            func copy(from a: ObjectContext, to b: ObjectContext) async throws {
                try await a.perform { first in
                    let item = first.insert(Item.self)
                    try await b.perform { second in _ = item[Item.uid] }
                }
            }
            """)
        #expect(diagnostics.contains("capture of 'item' with non-Sendable type 'ManagedObject'"))
    }

    @Test func returningAManagedObjectFromItsContextDoesNotCompile() throws {
        let diagnostics = try typecheck("""
            func leak(_ context: ObjectContext) async -> ManagedObject {
                await context.perform { context in context.insert(Item.self) }
            }
            """)
        #expect(diagnostics.contains("error: type 'ManagedObject' does not conform to the 'Sendable' protocol"))
    }

    @Test func theSameCodeWithAnObjectIDCompiles() throws {
        let diagnostics = try typecheck("""
            func copy(from a: ObjectContext, to b: ObjectContext) async throws {
                try await a.perform { first in
                    let id = first.insert(Item.self).objectID
                    try await b.perform { second in _ = try second.existingObject(with: id)[Item.uid] }
                }
            }
            func pass(_ context: ObjectContext) async -> ObjectID {
                await context.perform { context in context.insert(Item.self).objectID }
            }
            """)
        #expect(!diagnostics.contains("error:"), "\(diagnostics)")
    }

    private func typecheck(_ source: String) throws -> String {
        try CompilerCheck.typecheck(Self.prelude + source)
    }
}
