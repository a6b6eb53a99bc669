import Foundation
import PracticeLog
import StillpointCore
import StillpointStatistics
import StillpointManifest

/// Reports per practitioner, kept current: what a long-lived runner (a watched report, a report service) holds
/// for the practitioners it has reported on.
///
/// Each practitioner asked for gets a ``ReportRunner`` with a digest of their sessions only. Asking again
/// catches that digest up with the change log: only the changed sessions that are (or were) theirs are read and
/// applied, so a change to someone else's sessions reruns none of their statistics, and a session moved from one
/// practitioner to another leaves the first digest and joins the second. A practitioner removed (or renamed) from
/// the store is dropped. Every statistic reads the practitioner's digest, or the store through a context scoped to
/// the practitioner (a ``FetchScope`` the store applies to every statement), so it sees their sessions only.
///
/// Ask for one practitioner's report at a time (a service serialises the requests of one practitioner).
///
/// ```swift
/// let reports = PractitionerReports(container: container)
/// let alice = try await reports.report(for: "alice", entries, environment: environment)   // reads Alice's sessions
/// // ... sessions are saved ...
/// let again = try await reports.report(for: "alice", entries, environment: environment)   // catches up, reruns what changed
/// ```
public final class PractitionerReports: Sendable {
    public let container: PersistentContainer
    private let maxConcurrentStatistics: Int
    private let keepsResults: Bool
    private let log: @Sendable (String) -> Void
    /// The runner of each practitioner reported on, by id, with the practitioner's row id when it was made.
    private let runners = LockedState<[String: ReportRunner]>([:])

    /// Reports on `container`, each running up to `maxConcurrentStatistics` statistics at a time; `log` hears how
    /// each practitioner's digest was read or caught up. With `keepsResults` false, the runners keep no results of
    /// their digest statistics between reports (``ReportRunner/init(container:maxConcurrentStatistics:practitioner:keepsResults:log:)``).
    public init(container: PersistentContainer, maxConcurrentStatistics: Int = ProcessInfo.processInfo.activeProcessorCount,
                keepsResults: Bool = true, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.container = container
        self.maxConcurrentStatistics = maxConcurrentStatistics
        self.keepsResults = keepsResults
        self.log = log
    }

    /// The ids of the practitioners whose digests are held, in order.
    public var held: [String] {
        runners.withLock { $0.keys.sorted() }
    }

    /// The report of the practitioner `id` as the store holds it now, or `nil` when the store has no such
    /// practitioner (their digest, if held, is dropped).
    public func report(for id: String, _ entries: [PreparedEntry], environment: ReportEnvironment,
                       onEvent: @escaping @MainActor @Sendable (ReportEvent) -> Void = { _ in }) async throws -> Report? {
        guard let rowID = try await Practitioners.existingRowID(of: id, in: container) else {
            drop(id)
            return nil
        }
        let runner = runners.withLock { runners in
            // The same id with another row id is another practitioner (the first removed, a new one added).
            if let held = runners[id], held.practitioner == rowID { return held }
            let made = ReportRunner(container: container, maxConcurrentStatistics: maxConcurrentStatistics, practitioner: rowID,
                                    keepsResults: keepsResults) { [log] line in
                log("\(id): \(line)")
            }
            runners[id] = made
            return made
        }
        return await runner.run(entries, environment: environment, onEvent: onEvent)
    }

    /// Drops the digests of the practitioners the store no longer has, and returns their ids.
    @discardableResult
    public func dropRemoved() async throws -> [String] {
        let present = try await Set(Practitioners.list(in: container).map(\.id))
        return runners.withLock { runners in
            let gone = runners.keys.filter { !present.contains($0) }.sorted()
            for id in gone { runners[id] = nil }
            return gone
        }
    }

    /// The runner of the practitioner `id`, if their digest is held.
    func runner(of id: String) -> ReportRunner? {
        runners.withLock { $0[id] }
    }

    /// The digests held, by practitioner id: a report service asks whose sessions they hold and how large they are.
    var keptDigests: [String: SessionDigest] {
        runners.withLock { $0 }.compactMapValues(\.keptDigest)
    }

    /// Drops the digest of the practitioner `id`, if held.
    func drop(_ id: String) {
        _ = runners.withLock { $0.removeValue(forKey: id) }
    }
}
