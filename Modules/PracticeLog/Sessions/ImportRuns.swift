import Foundation
import StillpointCore

/// The import runs of a store: recorded as an import starts and finishes, listed, replaced when the same file
/// is imported again, and removed with their sessions.
///
/// ```swift
/// let run = try await ImportRuns.begin(file: "log.csv", contentHash: hash, format: "csv", options: "", in: container)
/// // ... import with SessionImportSource(reader: reader, run: run) ...
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
        /// The sessions that name this run now (a later import of another file may have taken some over).
        public var sessions: Int
    }

    /// Records an import that starts now and returns its run's ID.
    public static func begin(file: String, contentHash: String, format: String, options: String,
                             in container: PersistentContainer) async throws -> Int64 {
        try await container.performBackgroundTask { context in
            let run = context.insert(ImportRun.self)
            run[ImportRun.file] = file
            run[ImportRun.contentHash] = contentHash
            run[ImportRun.format] = format
            run[ImportRun.options] = options
            run[ImportRun.startedAt] = Date()
            try await context.save()
            guard let id = run.objectID.rowID else { throw CocoaError(.coderInvalidValue) }
            return id
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
    /// none) with `run`: the sessions they wrote
    /// that `run` did not write again are removed (one batch delete, merged into live reports like any other
    /// change), and so are the runs. Returns the runs replaced and how many sessions were removed.
    ///
    /// Only runs that had ended before `run` began are replaced: a run of the same file that overlapped it (another
    /// process importing it at the same moment, or one killed part-way, which never ended) may have written or
    /// re-marked sessions that `run` counts as its own, and removing them would lose sessions. Those runs stay,
    /// listed, until a later import or `imports remove` takes them out.
    public static func replaceEarlier(than run: Int64, in container: PersistentContainer) async throws -> (runs: [Listing], removed: Int) {
        let runs = try await list(in: container)
        guard let current = runs.first(where: { $0.id == run }), !current.contentHash.isEmpty else { return ([], 0) }
        let earlier = runs.filter { listing in
            guard listing.id != run, listing.contentHash == current.contentHash, let finished = listing.finishedAt else { return false }
            return finished <= current.startedAt
        }
        guard !earlier.isEmpty else { return ([], 0) }
        var removed = 0
        for listing in earlier { removed += try await remove(listing.id, from: container) ?? 0 }
        return (earlier, removed)
    }

    /// Every run, oldest first.
    public static func list(in container: PersistentContainer) async throws -> [Listing] {
        try await container.newBackgroundContext(name: "import runs").perform { context in
            var request = FetchRequest(ImportRun.self)
            request.sortKeys = [.ascending("startedAt")]
            let runs = try context.fetch(request)
            var counts: [Int64: Int] = [:]
            var sessions = FetchRequest(Session.self, predicate: try FetchPredicate("importRun != nil"))
            sessions.properties = [.attribute("importRun"), .aggregate(.count, of: "key", as: "sessions")]
            sessions.groupBy = ["importRun"]
            for row in try context.fetchDictionaries(sessions) {
                if case .integer(let id)? = row["importRun"], case .integer(let count)? = row["sessions"] {
                    counts[id] = Int(exactly: count) ?? 0
                }
            }
            return runs.compactMap { run -> Listing? in
                guard let id = run.objectID.rowID else { return nil }
                return Listing(id: id, file: run[ImportRun.file], contentHash: run[ImportRun.contentHash],
                               format: run[ImportRun.format], options: run[ImportRun.options], startedAt: run[ImportRun.startedAt],
                               inserted: run[ImportRun.inserted], updated: run[ImportRun.updated],
                               unchanged: run[ImportRun.unchanged], skipped: run[ImportRun.skipped],
                               isComplete: run[ImportRun.isComplete], finishedAt: run[ImportRun.finishedAt], sessions: counts[id] ?? 0)
            }
        }
    }

    /// Removes a run and the sessions that name it (one batch delete); returns how many sessions it removed,
    /// or `nil` when there is no such run.
    @discardableResult
    public static func remove(_ run: Int64, from container: PersistentContainer) async throws -> Int? {
        try await container.newBackgroundContext(name: "import run removal").perform { context in
            guard let object = try? context.existingObject(with: ObjectID(entity: ImportRun.entity, rowID: run)) else { return nil }
            let sessions = FetchRequest(Session.self, predicate: try FetchPredicate("importRun == %@", run))
            let removed = try await context.batchDelete(sessions).count
            try context.delete(object)
            try await context.save()
            return removed
        }
    }
}
