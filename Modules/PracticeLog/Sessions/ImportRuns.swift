import Foundation
import StillpointCore

/// The import runs of a store: recorded as an import starts and finishes, listed, replaced when the same file
/// is imported again, and removed with the sessions no other run read (docs/import-runs.md).
///
/// ```swift
/// let me = try await Practitioners.rowID(of: Practitioner.defaultID, in: container)
/// let run = try await ImportRuns.begin(file: "log.csv", contentHash: hash, format: "csv", options: "", practitioner: me, in: container)
/// // ... import with ImportOperation(..., linking: .init(Session.importRuns.name, to: runID)) ...
/// try await ImportRuns.finish(run, summary: operation.summary, complete: true, in: container)
/// let replaced = try await ImportRuns.replaceEarlier(than: run, in: container)
/// ```
public enum ImportRuns {
    /// One run as `stillpoint imports` lists it.
    public struct Listing: Sendable, Equatable {
        public var id: Int64
        public var file: String
        public var contentHash: String
        public var format: String
        public var options: String
        public var startedAt: Date
        public var inserted: Int
        public var updated: Int
        public var unchanged: Int
        public var skipped: Int
        public var isComplete: Bool
        /// When the run ended; `nil` while it runs, or when it was killed.
        public var finishedAt: Date?
        /// The sessions linked to this run: those it read that are still in the store.
        public var sessions: Int

        /// The process that ran it (``ImportRunProcess``), empty for runs of older releases.
        public var process: String
        /// The row id of the practitioner whose sessions it imported; `nil` for a run another program wrote without one.
        public var practitioner: Int64?

        /// How far the run got.
        public enum State: Sendable, Equatable {
            /// It read the whole file.
            case complete
            /// It ended before the end of the file: a line it could not read, Ctrl-C, a full disk.
            case stoppedPartWay
            /// It never ended and its process is gone: it was killed.
            case killed
            /// It has not ended, and its process may still be running it.
            case running
        }

        public var state: State {
            if isComplete { return .complete }
            if finishedAt != nil { return .stoppedPartWay }
            // An older release cannot open this store any more, so its run that never ended never will.
            return process.isEmpty || ImportRunProcess.isGone(process) ? .killed : .running
        }
    }

    /// Records an import into the sessions of the practitioner with row id `practitioner` that starts now, and
    /// returns its run's ID.
    public static func begin(file: String, contentHash: String, format: String, options: String, practitioner: Int64,
                             in container: PersistentContainer) async throws -> Int64 {
        let runs = try await begin(file: file, contentHash: contentHash, format: format, options: options,
                                   practitioners: [practitioner], in: container)
        guard let run = runs.first else { throw CocoaError(.coderInvalidValue) }
        return run
    }

    /// Records one run of an import of the sessions of many practitioners (by row id) for each of them, in one
    /// save, and returns their IDs in the same order.
    ///
    /// ```swift
    /// let runs = try await ImportRuns.begin(file: "users.csv", contentHash: hash, format: "csv", options: "",
    ///                                       practitioners: [alice, bob], in: container)
    /// ```
    public static func begin(file: String, contentHash: String, format: String, options: String, practitioners: [Int64],
                             in container: PersistentContainer) async throws -> [Int64] {
        guard !practitioners.isEmpty else { return [] }
        return try await container.performBackgroundTask { context in
            let startedAt = Date()
            var runs: [ManagedObject] = []
            runs.reserveCapacity(practitioners.count)
            for practitioner in practitioners {
                let run = context.insert(ImportRun.self)
                try run.set(ImportRun.practitioner, to: try context.existingObject(with: ObjectID(entity: Practitioner.entity, rowID: practitioner)))
                run[ImportRun.file] = file
                run[ImportRun.contentHash] = contentHash
                run[ImportRun.format] = format
                run[ImportRun.options] = options
                run[ImportRun.startedAt] = startedAt
                run[ImportRun.process] = ImportRunProcess.current
                runs.append(run)
            }
            try await context.save()
            return try runs.map { run in
                guard let id = run.objectID.rowID else { throw CocoaError(.coderInvalidValue) }
                return id
            }
        }
    }

    /// Records what the import did, and whether it read the whole file.
    public static func finish(_ run: Int64, summary: ImportSummary, complete: Bool, in container: PersistentContainer) async throws {
        try await container.performBackgroundTask { context in
            let object = try context.existingObject(with: ObjectID(entity: ImportRun.entity, rowID: run))
            object[ImportRun.inserted] = summary.inserted
            object[ImportRun.updated] = summary.updated
            object[ImportRun.unchanged] = summary.unchanged
            object[ImportRun.skipped] = summary.skipped
            object[ImportRun.isComplete] = complete
            object[ImportRun.finishedAt] = Date()
            try await context.save()
        }
    }

    /// Replaces the earlier runs of the same file (the same content hash; a run read from a device or a pipe has
    /// none) with `run`, which read the whole file: each earlier run is removed as ``remove(_:from:)`` removes it,
    /// so the sessions `run` read again stay, and those only an earlier run read go. Returns the runs replaced and
    /// how many sessions were removed.
    ///
    /// Every run of the file that began before `run` and is over is replaced: complete, stopped part-way, or
    /// killed (it never ended and its process is gone). A run still going in another process is left alone, and so
    /// are runs that began later: the next complete import of the file replaces them.
    public static func replaceEarlier(than run: Int64, in container: PersistentContainer) async throws -> (runs: [Listing], removed: Int) {
        try await replaceEarlier(than: [run], in: container)
    }

    /// Replaces the earlier runs of the same file with each of `runs`, as ``replaceEarlier(than:in:)`` does with
    /// one, among the runs of that run's practitioner only: a bulk load of many practitioners records one run
    /// each, all of the same file, and each replaces only its practitioner's earlier ones. One listing of the runs
    /// for all of them.
    public static func replaceEarlier(than runs: [Int64], in container: PersistentContainer) async throws -> (runs: [Listing], removed: Int) {
        let listings = try await list(in: container)
        let byID = Dictionary(listings.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        struct Group: Hashable {
            var practitioner: Int64?
            var contentHash: String
        }
        let groups = Dictionary(grouping: listings) { Group(practitioner: $0.practitioner, contentHash: $0.contentHash) }
        var earlier: [Listing] = []
        for run in runs {
            guard let current = byID[run], !current.contentHash.isEmpty else { continue }
            earlier += (groups[Group(practitioner: current.practitioner, contentHash: current.contentHash)] ?? []).filter { listing in
                listing.id != run && listing.state != .running && (listing.startedAt, listing.id) < (current.startedAt, current.id)
            }
        }
        guard !earlier.isEmpty else { return ([], 0) }
        var removed = 0
        for listing in earlier { removed += try await remove(listing.id, from: container, practitioner: listing.practitioner) ?? 0 }
        return (earlier, removed)
    }

    /// The link table between runs and sessions (``ImportRun/sessions``, ``Session/importRuns``).
    static var linkEntity: EntityDescription {
        get throws {
            try Session.schema.entity(named: ImportRun.sessionLinksEntityName)
        }
    }

    /// Every run, oldest first; with `practitioner`, that practitioner's runs only (their row id, as
    /// ``Practitioners/find(_:in:)`` gives it), whatever the container's scope.
    ///
    /// ```swift
    /// let alices = try await ImportRuns.list(in: container, practitioner: alice.rowID)
    /// ```
    public static func list(in container: PersistentContainer, practitioner: Int64? = nil) async throws -> [Listing] {
        let links = try linkEntity
        return try await context(container, practitioner: practitioner, name: "import runs").perform { context in
            var request = FetchRequest(ImportRun.self)
            request.sortKeys = [.ascending("startedAt")]
            let runs = try context.fetch(request)
            // Held by the context, each run's practitioner is known without a read per run.
            let practitioners = try context.fetch(FetchRequest(Practitioner.self))
            let counts = try sessionCounts(through: links, in: context)
            return try withExtendedLifetime(practitioners) {
                try runs.compactMap { run -> Listing? in
                    guard let id = run.objectID.rowID else { return nil }
                    return Listing(id: id, file: run[ImportRun.file], contentHash: run[ImportRun.contentHash],
                                   format: run[ImportRun.format], options: run[ImportRun.options], startedAt: run[ImportRun.startedAt],
                                   inserted: run[ImportRun.inserted], updated: run[ImportRun.updated],
                                   unchanged: run[ImportRun.unchanged], skipped: run[ImportRun.skipped],
                                   isComplete: run[ImportRun.isComplete], finishedAt: run[ImportRun.finishedAt], sessions: counts[id] ?? 0,
                                   process: run[ImportRun.process], practitioner: try run[ImportRun.practitioner]?.objectID.rowID)
                }
            }
        }
    }

    /// A background context for reading or removing runs: scoped to the practitioner with row id `practitioner`, if given.
    private static func context(_ container: PersistentContainer, practitioner: Int64?, name: String) async throws -> ObjectContext {
        guard let practitioner else { return container.newBackgroundContext(name: name) }
        return try await Practitioners.context(of: practitioner, in: container, name: name)
    }

    /// The number of sessions linked to each run id, from the link table: one grouped query.
    private static func sessionCounts(through links: EntityDescription, in context: isolated ObjectContext) throws -> [Int64: Int] {
        var request = FetchRequest(links)
        request.properties = [.attribute("source"), .count(as: "sessions")]
        request.groupBy = ["source"]
        var counts: [Int64: Int] = [:]
        for row in try context.fetchDictionaries(request) {
            if case .integer(let id)? = row["source"], case .integer(let count)? = row["sessions"] {
                counts[id] = Int(exactly: count) ?? 0
            }
        }
        return counts
    }

    /// Links between runs and sessions that reach a run or a session that is gone: another program deleted it
    /// with SQLite's foreign keys off (or PostgreSQL's triggers disabled), so the link table's cascade never ran.
    public struct BrokenLinks: Sendable, Equatable {
        /// The runs that are gone, by id, with the number of sessions still linked to each.
        public var runsGone: [Int64: Int] = [:]
        /// The links to sessions that are gone.
        public var sessionsGone = 0

        public var isEmpty: Bool { runsGone.isEmpty && sessionsGone == 0 }
    }

    /// What ``BrokenLinks`` the store holds; none in a sound store. Opening the store for writing (an import) deletes
    /// them, as the cascade would have.
    ///
    /// ```swift
    /// let broken = try await ImportRuns.brokenLinks(in: container)   // runsGone: [3: 25]
    /// ```
    public static func brokenLinks(in container: PersistentContainer) async throws -> BrokenLinks {
        let links = try linkEntity
        return try await container.newBackgroundContext(name: "import run links").perform { context in
            var broken = BrokenLinks()
            let runs = Set(try context.fetchObjectIDs(FetchRequest(ImportRun.self)).compactMap(\.rowID))
            for (run, count) in try sessionCounts(through: links, in: context) where !runs.contains(run) {
                broken.runsGone[run] = count
            }
            // A session always has a key: a link whose session's key reads as nil reaches no session.
            var gone = FetchRequest(links, predicate: try FetchPredicate("target.key == nil"))
            gone.properties = [.count(as: "links")]
            if case .integer(let count)? = try context.fetchDictionaries(gone).first?["links"] {
                broken.sessionsGone = Int(exactly: count) ?? 0
            }
            return broken
        }
    }

    /// Removes a run, and the sessions it read that no other run read, in one write transaction; returns how many
    /// sessions it removed, or `nil` when there is no such run. A session another run read stays, linked to that
    /// run. Two removals at once take turns on a SQLite store (one writer at a time), so that two runs removed
    /// together remove the sessions only they read. With `practitioner`, a run of another practitioner is not found
    /// (`nil`), exactly as a run that does not exist.
    ///
    /// ```swift
    /// guard let removed = try await ImportRuns.remove(7, from: container, practitioner: alice.rowID) else { return }
    /// ```
    @discardableResult
    public static func remove(_ run: Int64, from container: PersistentContainer, practitioner: Int64? = nil) async throws -> Int? {
        let links = try linkEntity
        return try await context(container, practitioner: practitioner, name: "import run removal").perform { context -> Int? in
            guard (try? context.existingObject(with: ObjectID(entity: ImportRun.entity, rowID: run))) != nil else { return nil }
            let onlyThisRun = FetchRequest(Session.self, predicate: try FetchPredicate("ANY importRuns._id == %@ AND importRuns.@count == 1", run))
            // The run's links as a change of their own (the store would delete them with the run, unannounced), so
            // that what reads sessions through their runs (by_import) sees the run go without watching every run.
            let results = try await context.batchDelete([
                onlyThisRun, FetchRequest(links, predicate: try FetchPredicate("source == %@", run)),
                FetchRequest(ImportRun.self, predicate: try FetchPredicate("_id == %@", run)),
            ])
            return results.first?.count ?? 0
        }
    }
}
