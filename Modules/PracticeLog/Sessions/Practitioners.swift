import Foundation
import StillpointCore

/// The practitioners of a store, found by the id the app chose and made when first needed.
///
/// ```swift
/// let me = try await Practitioners.rowID(of: Practitioner.defaultID, in: container)   // made if the store has none
/// try await container.performBackgroundTask { context in
///     let session = context.insert(Session.self)
///     try session.set(Session.practitioner, to: try Practitioners.object("alice", in: context))
///     // ...
/// }
/// ```
public enum Practitioners {
    /// The practitioner `id` as an object of `context`: the stored one, or one inserted now (saved with the
    /// context), with no name and no home time zone.
    public static func object(_ id: String, in context: isolated ObjectContext) throws -> ManagedObject {
        if let existing = try context.fetch(FetchRequest(Practitioner.self, predicate: Practitioner.id == id, limit: 1)).first {
            return existing
        }
        let practitioner = context.insert(Practitioner.self)
        practitioner[Practitioner.id] = id
        return practitioner
    }

    /// The row id of the practitioner `id`, made and saved when the store has none. Two processes that make the
    /// same practitioner at once both get the one that was saved first.
    public static func rowID(of id: String, in container: PersistentContainer) async throws -> Int64 {
        let context = container.newBackgroundContext(name: "practitioners")
        do {
            return try await savedRowID(of: id, in: context)
        } catch {
            // Another writer saved the same id between the look-up and the save: what it saved is the one.
            await context.perform { $0.rollback() }
            return try await savedRowID(of: id, in: context)
        }
    }

    private static func savedRowID(of id: String, in context: ObjectContext) async throws -> Int64 {
        try await context.perform { context in
            let practitioner = try object(id, in: context)
            if context.hasChanges { try await context.save() }
            // A saved object has its row id; as in ImportRuns.begin, a missing one is a fault, not a state.
            guard let rowID = practitioner.objectID.rowID else { throw CocoaError(.coderInvalidValue) }
            return rowID
        }
    }
}
