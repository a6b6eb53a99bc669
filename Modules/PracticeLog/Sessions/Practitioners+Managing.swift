import Foundation
import StillpointCore

extension Practitioners {
    /// One practitioner as `stillpoint practitioners` lists it.
    public struct Listing: Sendable, Equatable {
        public var id: String
        /// Empty when none was given.
        public var name: String
        /// `nil`: the zone of the machine.
        public var timeZone: String?
        /// The practitioner's sessions in the store.
        public var sessions: Int

        public init(id: String, name: String, timeZone: String?, sessions: Int) {
            self.id = id
            self.name = name
            self.timeZone = timeZone
            self.sessions = sessions
        }
    }

    /// What ``rename(_:to:in:)`` did.
    public enum Renaming: Sendable, Equatable {
        case renamed
        /// The store has no practitioner with the old id.
        case notFound
        /// Another practitioner already has the new id.
        case newIDTaken
    }

    /// What ``remove(_:from:)`` removed.
    public struct Removal: Sendable, Equatable {
        public var sessions: Int
        public var importRuns: Int

        public init(sessions: Int, importRuns: Int) {
            self.sessions = sessions
            self.importRuns = importRuns
        }
    }

    /// The longest id a practitioner may have, in characters.
    public static let maximumIDLength = 200

    /// Why `id` cannot be a practitioner's id, or `nil` when it can: an id is 1 to ``maximumIDLength`` characters
    /// without control characters, so that it prints on one line wherever it is shown.
    ///
    /// ```swift
    /// Practitioners.problem(withID: "alice")   // nil
    /// Practitioners.problem(withID: "")        // "is empty"
    /// ```
    public static func problem(withID id: String) -> String? {
        id.isEmpty ? "is empty" : problem(withName: id)
    }

    /// Why `name` cannot be a practitioner's display name, or `nil` when it can: as an id, but it may be empty.
    public static func problem(withName name: String) -> String? {
        if name.count > maximumIDLength { return "is longer than \(maximumIDLength) characters" }
        if name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) { return controlCharacterProblem }
        return nil
    }

    /// What ``problem(withID:)`` says of an id with a control character.
    static let controlCharacterProblem = "holds a control character"

    /// The practitioners in id order (the store's order of ids), with their session counts: every one, or with
    /// `after` only those whose id comes after it, and with `limit` at most that many (one query for the page and
    /// one grouped query for its counts, so that a page of a store of thousands reads only its own).
    ///
    /// ```swift
    /// for practitioner in try await Practitioners.list(in: container) { print(practitioner.id, practitioner.sessions) }
    /// let next = try await Practitioners.list(after: "p00099", limit: 100, in: container)
    /// ```
    public static func list(after: String? = nil, limit: Int? = nil, in container: PersistentContainer) async throws -> [Listing] {
        try await container.newBackgroundContext(name: "practitioners").perform { context in
            var request = FetchRequest(Practitioner.self)
            if let after { request.predicate = try FetchPredicate("\(Practitioner.id.name) > %@", after) }
            request.sortKeys = [.ascending(Practitioner.id.name)]
            request.limit = limit
            let practitioners = try context.fetch(request)
            let idPath = "\(Session.practitioner.name).\(Practitioner.id.name)"
            var counting = FetchRequest(Session.self)
            if after != nil || limit != nil {
                counting.predicate = try FetchPredicate("\(idPath) IN %@", practitioners.map { $0[Practitioner.id] })
            }
            counting.properties = [.attribute(idPath), .count(as: "sessions")]
            counting.groupBy = [idPath]
            var counts: [String: Int] = [:]
            for row in try context.fetchDictionaries(counting) {
                if case .string(let id)? = row[idPath], case .integer(let count)? = row["sessions"] {
                    counts[id] = Int(exactly: count) ?? 0
                }
            }
            return practitioners.map { practitioner in
                let id = practitioner[Practitioner.id]
                return Listing(id: id, name: practitioner[Practitioner.name], timeZone: practitioner[Practitioner.timeZone],
                               sessions: counts[id] ?? 0)
            }
        }
    }

    /// The row id of the practitioner `id`, or `nil` when the store has none (nothing is made).
    ///
    /// ```swift
    /// guard let alice = try await Practitioners.existingRowID(of: "alice", in: container) else { return }
    /// ```
    public static func existingRowID(of id: String, in container: PersistentContainer) async throws -> Int64? {
        try await container.newBackgroundContext(name: "practitioners").perform { context in
            try context.fetchObjectIDs(FetchRequest(Practitioner.self, predicate: Practitioner.id == id, limit: 1)).first?.rowID
        }
    }

    /// Adds the practitioner `id`; returns `false`, changing nothing, when the store already has one with that id.
    ///
    /// ```swift
    /// try await Practitioners.add("alice", name: "Alice", timeZone: "Europe/Berlin", in: container)
    /// ```
    @discardableResult
    public static func add(_ id: String, name: String = "", timeZone: String? = nil, in container: PersistentContainer) async throws -> Bool {
        try await container.performBackgroundTask { context in
            guard try context.count(for: FetchRequest(Practitioner.self, predicate: Practitioner.id == id)) == 0 else { return false }
            let practitioner = context.insert(Practitioner.self)
            practitioner[Practitioner.id] = id
            practitioner[Practitioner.name] = name
            practitioner[Practitioner.timeZone] = timeZone
            try await context.save()
            return true
        }
    }

    /// Gives the practitioner `id` the id `newID`, keeping their name, zone, sessions and runs.
    ///
    /// ```swift
    /// try await Practitioners.rename("me", to: "alice", in: container)   // .renamed
    /// ```
    public static func rename(_ id: String, to newID: String, in container: PersistentContainer) async throws -> Renaming {
        try await container.performBackgroundTask { context in
            guard let practitioner = try context.fetch(FetchRequest(Practitioner.self, predicate: Practitioner.id == id, limit: 1)).first else {
                return .notFound
            }
            guard newID != id else { return .renamed }
            guard try context.count(for: FetchRequest(Practitioner.self, predicate: Practitioner.id == newID)) == 0 else { return .newIDTaken }
            practitioner[Practitioner.id] = newID
            try await context.save()
            return .renamed
        }
    }

    /// Removes the practitioner `id` with their sessions and import runs in one batch delete (one write
    /// transaction: all of it or none); `nil` when the store has no such practitioner.
    ///
    /// ```swift
    /// let removed = try await Practitioners.remove("bob", from: container)   // Removal(sessions: 2_100, importRuns: 3)
    /// ```
    public static func remove(_ id: String, from container: PersistentContainer) async throws -> Removal? {
        let links = try ImportRuns.linkEntity
        return try await container.newBackgroundContext(name: "practitioner removal").perform { context -> Removal? in
            let theirs = try FetchPredicate("\(Session.practitioner.name).\(Practitioner.id.name) == %@", id)
            guard try context.count(for: FetchRequest(Practitioner.self, predicate: Practitioner.id == id)) > 0 else { return nil }
            // The links as a change of their own, as ImportRuns.remove deletes them, so that what reads sessions
            // through their runs sees them go.
            let results = try await context.batchDelete([
                FetchRequest(links, predicate: try FetchPredicate("source.practitioner.id == %@ OR target.practitioner.id == %@", id, id)),
                FetchRequest(Session.self, predicate: theirs), FetchRequest(ImportRun.self, predicate: theirs),
                FetchRequest(Practitioner.self, predicate: Practitioner.id == id),
            ])
            return Removal(sessions: results[1].count, importRuns: results[2].count)
        }
    }
}
