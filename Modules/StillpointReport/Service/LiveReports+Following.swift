import Foundation
import PracticeLog
import StillpointCore

extension LiveReports {
    /// Above this many changed sessions, every held practitioner is made again rather than their owners looked up.
    static let largestTargetedChange = 10_000
    /// The author of the change the probe adds when the store is back: every held report catches up once.
    static let catchUpAuthor = "stillpoint.live-reports.catch-up"
    /// The author of the change the probe adds when a refresh failed: those reports are made again without waiting
    /// for the next commit, which may never come.
    static let retryAuthor = "stillpoint.live-reports.retry"

    /// Starts the tasks that apply the watched changes and probe the store.
    func startFollowing(probeInterval: Duration) {
        let forwarder = Task { [watch, coalescer, state] in
            for await changeSet in watch.changes {
                state.withLock { $0.received += 1 }
                coalescer.add(changeSet)
            }
            coalescer.finish()
        }
        let follower = Task { [self] in
            while let pending = await coalescer.next() { await apply(pending) }
        }
        let prober = Task { [self] in
            let context = container.newBackgroundContext(name: "live reports probe")
            while !Task.isCancelled {
                try? await Task.sleep(for: probeInterval)
                if Task.isCancelled { break }
                await probe(context)
            }
        }
        state.withLock { $0.tasks = [forwarder, follower, prober] }
    }

    /// Makes again the reports of the practitioners `pending` touched, then records its position as applied.
    func apply(_ pending: ChangeCoalescer.Pending) async {
        let (keys, loading) = state.withLock { state in (Set(state.held.keys).union(state.loading.keys), Set(state.loading.keys.map(\.practitioner))) }
        let needed = state.withLock { state in
            defer { state.needsRefresh = [] }
            return state.needsRefresh
        }
        let touched = await practitioners(touchedBy: pending, among: Set(keys.map(\.practitioner))).union(loading).union(needed)
        var failed = Set<String>()
        for key in keys.sorted(by: { ($0.practitioner, $0.manifest) < ($1.practitioner, $1.manifest) })
        where touched.contains(key.practitioner) && !failed.contains(key.practitioner) {
            do {
                _ = try await inLane(of: key.practitioner) { [self] in
                    // Only what is held is kept current: a first request that failed left nothing to keep.
                    guard state.withLock({ $0.held[key] }) != nil else { return false }
                    _ = try await refresh(key, try manifest(named: key.manifest), onlyIfOld: false)
                    return true
                }
            } catch {
                failed.insert(key.practitioner)
                log("\(key.practitioner): the report could not be made again (\(LiveReports.message(for: error))); served stale until it can")
            }
        }
        let caughtUp = state.withLock { state in
            for key in keys where failed.contains(key.practitioner) { state.held[key]?.failed = true }
            state.needsRefresh.formUnion(failed)
            state.applied += pending.changeSetCount
            if pending.authors.contains(Self.catchUpAuthor) { state.catchUpAsked = false }
            if pending.authors.contains(Self.retryAuthor) { state.retryAsked = false }
            guard failed.isEmpty, !state.storeUnreachable, state.catchingUp else { return false }
            state.catchingUp = false
            return true
        }
        if caughtUp { log("caught up with the store: every held report is current") }
    }

    /// The practitioners among `held` whose reports `pending` may change: whose digests held a changed session
    /// (moved away or deleted since), and who own one now. All of them for a change to practitioners themselves
    /// (added, renamed, removed), for a change too large to look up, for the catch-up after the store came back,
    /// and when the owners cannot be read.
    func practitioners(touchedBy pending: ChangeCoalescer.Pending, among held: Set<String>) async -> Set<String> {
        guard !held.isEmpty else { return [] }
        let sessions = pending.changed.filter { $0.entityName == Session.entity.name }.compactMap(\.rowID)
        if pending.authors.contains(Self.catchUpAuthor) || pending.entityNames.contains(Practitioner.entity.name)
            || sessions.count > Self.largestTargetedChange {
            return held
        }
        guard !sessions.isEmpty else { return [] }
        var touched = Set<String>()
        for (id, digest) in reports.keptDigests where held.contains(id) {
            if digest.withColumns({ columns in sessions.contains(where: columns.holds) }) { touched.insert(id) }
        }
        do {
            touched.formUnion(try await owners(of: sessions).intersection(held))
        } catch {
            log("the owners of \(sessions.count) changed session(s) could not be read (\(LiveReports.message(for: error))); making every held report again")
            return held
        }
        return touched
    }

    /// The ids of the practitioners who own the sessions `rowIDs` now.
    func owners(of rowIDs: [Int64]) async throws -> Set<String> {
        let path = "\(Session.practitioner.name).\(Practitioner.id.name)"
        var ownersRequest = FetchRequest(Session.self, predicate: try FetchPredicate("_id IN %@", rowIDs))
        ownersRequest.properties = [.attribute(path)]
        let request = ownersRequest
        return try await container.newBackgroundContext(name: "live reports").perform { context in
            var owners = Set<String>()
            try context.forEachRow(request) { values in
                if case .string(let id) = values[0] { owners.insert(id) }
            }
            return owners
        }
    }

    /// Asks the store for its change-log position: marks the reports stale when it cannot be reached, and when it
    /// is back, has every held report catch up (the notifications sent meanwhile are lost). Has the reports whose
    /// refresh failed made again.
    func probe(_ context: ObjectContext) async {
        do {
            let latest = try await context.perform { context in try context.historyToken().sequence }
            let (cameBack, asks, retries) = state.withLock { state in
                let cameBack = state.storeUnreachable
                if cameBack { state.catchingUp = true }
                state.storeUnreachable = false
                // Asked again while a round failed (the store went again part-way), not while one is under way.
                let asks = state.catchingUp && !state.catchUpAsked
                if asks {
                    state.catchUpAsked = true
                    state.received += 1
                }
                let retries = !asks && !state.needsRefresh.isEmpty && !state.retryAsked
                if retries {
                    state.retryAsked = true
                    state.received += 1
                }
                return (cameBack, asks, retries)
            }
            if cameBack { log("the store is back: catching every held report up with its change log") }
            if asks { coalescer.add(entityNames: [], sequence: latest, author: Self.catchUpAuthor) }
            if retries { coalescer.add(entityNames: [], sequence: latest, author: Self.retryAuthor) }
        } catch {
            let wentAway = state.withLock { state in
                defer { state.storeUnreachable = true }
                return !state.storeUnreachable
            }
            if wentAway { log("the store cannot be reached (\(LiveReports.message(for: error))); serving the reports held, marked stale") }
        }
    }

    static func message(for error: any Error) -> String {
        ReportRunner.message(for: error)
    }
}
