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

    /// The row ids of the practitioners `ids`, those the store does not hold made (with no name and no home time
    /// zone) and saved together: a bulk load of many people makes them in one save, not one each.
    ///
    /// ```swift
    /// let rows = try await Practitioners.rowIDs(of: ["alice", "bob"], in: container)   // ["alice": 1, "bob": 2]
    /// ```
    public static func rowIDs(of ids: [String], in container: PersistentContainer) async throws -> [String: Int64] {
        guard !ids.isEmpty else { return [:] }
        let context = container.newBackgroundContext(name: "practitioners")
        do {
            return try await savedRowIDs(of: ids, in: context)
        } catch {
            // Another writer saved some of them between the look-up and the save: what it saved is theirs.
            await context.perform { $0.rollback() }
            return try await savedRowIDs(of: ids, in: context)
        }
    }

    /// How many ids one look-up names: far below the bound parameters of a statement on every store.
    private static let idsPerLookup = 1_000

    /// The home time zones of those of the practitioners `ids` that have one (a zone the system does not know is
    /// left out, as if none).
    ///
    /// ```swift
    /// let zones = try await Practitioners.homeTimeZones(of: ["alice", "bob"], in: container)   // ["alice": Europe/Berlin]
    /// ```
    public static func homeTimeZones(of ids: [String], in container: PersistentContainer) async throws -> [String: TimeZone] {
        guard !ids.isEmpty else { return [:] }
        return try await container.newBackgroundContext(name: "practitioners").perform { context in
            try stored(ids, in: context).compactMapValues { practitioner in
                practitioner[Practitioner.timeZone].flatMap(TimeZone.init(identifier:))
            }
        }
    }

    /// The practitioners of `ids` the store holds, by id, looked up a chunk of ids at a time.
    private static func stored(_ ids: [String], in context: isolated ObjectContext) throws -> [String: ManagedObject] {
        var objects: [String: ManagedObject] = [:]
        for start in stride(from: 0, to: ids.count, by: idsPerLookup) {
            let chunk = Array(ids[start..<min(start + idsPerLookup, ids.count)])
            let request = FetchRequest(Practitioner.self, predicate: try FetchPredicate("id IN %@", chunk))
            for practitioner in try context.fetch(request) { objects[practitioner[Practitioner.id]] = practitioner }
        }
        return objects
    }

    private static func savedRowIDs(of ids: [String], in context: ObjectContext) async throws -> [String: Int64] {
        try await context.perform { context in
            var objects = try stored(ids, in: context)
            for id in ids where objects[id] == nil {
                let practitioner = context.insert(Practitioner.self)
                practitioner[Practitioner.id] = id
                objects[id] = practitioner
            }
            if context.hasChanges { try await context.save() }
            return try objects.mapValues { practitioner in
                guard let rowID = practitioner.objectID.rowID else { throw CocoaError(.coderInvalidValue) }
                return rowID
            }
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
