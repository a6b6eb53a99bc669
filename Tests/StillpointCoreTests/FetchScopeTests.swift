import Foundation
import StillpointCore
import Testing

/// A scope restricts the entities that reach its entity through to-one relationships, and nothing else; a
/// required to-one is checked by a save.
@Suite("FetchScope")
struct FetchScopeTests {
    /// A ticket must have a holder (a required to-one without an inverse).
    enum Ticket: Entity {
        static let seat = Attribute<String>("seat")
        static let holder = ToOne<Person>("holder", isRequired: true)
        static let entity = EntityDescription("Ticket", attributes: [seat], relationships: [holder])
    }

    @Test func aScopeReachesThroughToOneRelationshipsOnly() throws {
        let ann = try FetchScope(Person.self, try FetchPredicate("name == 'Ann'"))
        var entries = FetchRequest(Entry.self, predicate: try FetchPredicate("minutes > 5"))
        entries.scope = ann
        #expect(entries.predicate?.referencedKeys == ["minutes", "owner.name"])
        var people = FetchRequest(Person.self)
        people.scope = ann
        #expect(people.predicate?.referencedKeys == ["name"])
        var batches = FetchRequest(Batch.self)
        batches.scope = ann
        #expect(batches.predicate == nil, "a Batch reaches no Person")
        #expect(throws: FetchPredicateError.self) { try FetchScope(Person.self, try FetchPredicate("ANY passes.code == 'x'")) }
    }

    @Test(arguments: TestStore.all) func aScopedContextSeesOnlyWhatReachesItsRows(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: relationshipEntities)
        let (bensEntry, annsRow) = try await container.performBackgroundTask { context in
            var entries: [ManagedObject] = []
            var people: [ManagedObject] = []
            for name in ["Ann", "Ben"] {
                let person = context.insert(Person.self)
                person[Person.name] = name
                people.append(person)
                for minutes in [10, 20] {
                    let entry = context.insert(Entry.self)
                    entry[Entry.title] = "\(name) \(minutes)"
                    entry[Entry.minutes] = minutes
                    try entry.set(Entry.owner, to: person)
                    entries.append(entry)
                }
            }
            try await context.save()
            return (entries[2].objectID, people[0].objectID.rowID ?? 0)
        }
        let context = container.newBackgroundContext()
        await context.setScope(try FetchScope(Person.self, try FetchPredicate("_id == %@", annsRow)))
        let (titles, total, refused) = try await context.perform { context in
            let titles = try context.fetch(FetchRequest(Entry.self, predicate: try FetchPredicate("owner.name == 'Ben' OR minutes > 0")))
                .map { $0[Entry.title] }.sorted()
            var sum = FetchRequest(Entry.self)
            sum.properties = [.aggregate(.sum, of: "minutes", as: "total")]
            let total = try context.fetchDictionaries(sum).first?["total"]
            var refused = false
            do { _ = try context.existingObject(with: bensEntry) } catch ContextError.objectNotFound { refused = true }
            return (titles, total, refused)
        }
        #expect(titles == ["Ann 10", "Ann 20"])
        #expect(total == .integer(30) || total == .double(30))
        #expect(refused)
    }

    @Test(arguments: TestStore.all) func aRequiredToOneIsCheckedBySaves(store: TestStore) async throws {
        let container = try await makeContainer(store, entities: relationshipEntities + [Ticket.self])
        let failures = try await container.performBackgroundTask { context -> [ValidationFailure.Reason] in
            let ticket = context.insert(Ticket.self)
            ticket[Ticket.seat] = "12A"
            do {
                try await context.save()
                return []
            } catch SaveError.validation(let failures) {
                return failures.map(\.reason)
            }
        }
        #expect(failures == [.missingValue(attribute: "holder")])
    }
}
