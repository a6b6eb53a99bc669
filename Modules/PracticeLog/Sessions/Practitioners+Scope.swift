import Foundation
import StillpointCore

extension Practitioners {
    /// A practitioner as a request on their behalf needs them: their row id, for the scope, and their home time zone.
    public struct Found: Sendable, Equatable {
        public var rowID: Int64
        /// The IANA zone of wall-clock times that give none; `nil` when none was given.
        public var timeZone: String?
    }

    /// The practitioner `id`, or `nil` when the store has none (nothing is made).
    ///
    /// ```swift
    /// guard let alice = try await Practitioners.find("alice", in: container) else { return }
    /// await context.setScope(try .practitioner(alice.rowID))
    /// ```
    public static func find(_ id: String, in container: PersistentContainer) async throws -> Found? {
        try await container.newBackgroundContext(name: "practitioners").perform { context in
            var request = FetchRequest(Practitioner.self, predicate: Practitioner.id == id, limit: 1)
            request.includesPendingChanges = false
            guard let object = try context.fetch(request).first, let rowID = object.objectID.rowID else { return nil }
            return Found(rowID: rowID, timeZone: object[Practitioner.timeZone])
        }
    }

    /// A background context of `container` scoped to the practitioner with row id `rowID`.
    static func context(of rowID: Int64, in container: PersistentContainer, name: String) async throws -> ObjectContext {
        let context = container.newBackgroundContext(name: name)
        await context.setScope(try .practitioner(rowID))
        return context
    }
}
