import Foundation
import StillpointCore
import Testing

// The example of the Scopes article (StillpointCore.docc/Scopes.md), compiled and run here on every store, with
// the practitioner and session entities an application would declare.

@Suite("Scopes article")
struct ScopesArticleTests {
    enum Practitioner: Entity {
        static let id = Attribute<String>("id")
        static let entity = EntityDescription("Practitioner", attributes: [id])
    }

    enum Session: Entity {
        static let duration = Attribute<Double>("duration", default: 0)
        static let practitioner = ToOne<Practitioner>("practitioner", isRequired: true)
        static let entity = EntityDescription("Session", attributes: [duration], relationships: [practitioner])
    }

    @Test(arguments: TestStore.all) func aScopedContextFetchesAlicesSessionsOnly(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: [Practitioner.self, Session.self])
        let aliceRowID = try await container.performBackgroundTask { context in
            var rows: [Int64] = []
            for (name, count) in [("alice", 2), ("bob", 3)] {
                let practitioner = context.insert(Practitioner.self)
                practitioner[Practitioner.id] = name
                for minutes in 1...count {
                    let session = context.insert(Session.self)
                    session[Session.duration] = Double(minutes * 60)
                    try session.set(Session.practitioner, to: practitioner)
                }
                try await context.save()
                rows.append(practitioner.objectID.rowID ?? 0)
            }
            return rows[0]
        }
        let alice = try FetchScope(Practitioner.self, try FetchPredicate("_id == %@", aliceRowID))
        let context = container.newBackgroundContext()
        await context.setScope(alice)
        let count = try await context.perform { try $0.count(for: FetchRequest(Session.self)) }   // Alice's sessions only
        #expect(count == 2)
    }
}
