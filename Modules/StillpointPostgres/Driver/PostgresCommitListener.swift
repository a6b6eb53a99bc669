import Foundation
import StillpointCore

/// Rings each time another process may have committed to a PostgreSQL store: a connection of its own
/// `LISTEN`s on the change log's channel, which every save notifies in its transaction.
///
/// The doorbell is not the record: a notification can be missed (a writer that does not ring, a listener
/// that was busy reconnecting), so every `interval` the listener also looks at the change log's last entry and
/// rings when it moved. A commit whose change-log entry is held back (a transaction that began earlier is still
/// running, see ``PostgresChangeLog``) rings again once that transaction has ended, checked every `interval`
/// only while it runs, and it rings at least every ten intervals (a second at least) whatever happened, so that
/// a read a ring brought and that failed is made again without waiting for the next commit. Without a server
/// the listener retries every `interval`, ringing when it is back; `connection` hears once that it lost the
/// server and once that it is back, not at each retry. A store replaced under it (its database dropped and
/// made again) is not the one it followed: `connection` hears ``PostgresListenerEvent/replaced`` and the
/// listener stops.
///
/// ```swift
/// for await _ in PostgresCommitListener.signals(uri: uri, every: .milliseconds(500)) { readNewChanges() }
/// ```
enum PostgresCommitListener {
    static func signals(uri: String, every interval: Duration,
                        connection: @escaping @Sendable (PostgresListenerEvent) -> Void = { _ in }) -> AsyncStream<Void> {
        AsyncStream { continuation in
            let stopped = LockedState(false)
            continuation.onTermination = { _ in stopped.withLock { $0 = true } }
            let thread = Thread {
                listen(uri: uri, every: interval, stopped: stopped, connection: connection) { continuation.yield() }
                continuation.finish()
            }
            thread.name = "stillpoint.postgres.listener"
            thread.start()
        }
    }

    /// How long a wait for a notification lasts before the listener checks whether it was stopped.
    private static let stopCheck = Duration.milliseconds(200)

    /// How long the listener goes without ringing: ten intervals, at least a second.
    private static func safetyRing(every interval: Duration) -> Duration {
        max(interval * 10, .seconds(1))
    }

    private static func listen(uri: String, every interval: Duration, stopped: LockedState<Bool>,
                               connection report: (PostgresListenerEvent) -> Void, ring: () -> Void) {
        // The first ring catches up with what was committed before the listener started.
        ring()
        var connection: PostgresConnection?
        /// Whether the server was lost and the listener has not yet reconnected: said once each way.
        var isAway = false
        /// The store followed, as ``LogState/store`` first found it.
        var followed: String?
        /// The change log's last entry when the listener last looked.
        var lastEntry: Int64?
        /// The transaction ids a held-back entry waits for: rings again once every one below it has ended.
        var heldBackBelow: UInt64?
        var lastCheck = ContinuousClock.now
        var lastLook = ContinuousClock.now
        var lastRing = ContinuousClock.now
        /// Looks at the store and its change log; throws ``StoreReplaced`` when the store is not the one followed.
        func look(_ connection: PostgresConnection) throws {
            let state = try PostgresLogState(on: connection)
            lastLook = .now
            if followed == nil { followed = state.store }
            guard state.store == followed else { throw StoreReplaced() }
            lastEntry = state.lastEntry
        }
        // What is running is looked at before each ring: an entry the reader then finds held back is by one of
        // those, and the listener rings again once they have all ended. So is the store: the new store's changes
        // must not be read as the old one's.
        func ringNoting(_ connection: PostgresConnection) throws {
            if let followed, !followed.hasSuffix("/none") {
                // One statement for both looks, since the ring waits for it.
                let (state, oldestRunning, nextUnassigned) = try PostgresLogState.withPosition(on: connection)
                lastLook = .now
                guard state.store == followed else { throw StoreReplaced() }
                lastEntry = state.lastEntry
                heldBackBelow = oldestRunning < nextUnassigned ? nextUnassigned : nil
            } else {
                try look(connection)
                heldBackBelow = try runningTransactions(on: connection)
            }
            lastCheck = .now
            lastRing = .now
            ring()
        }
        while !stopped.withLock({ $0 }) {
            do {
                guard let listening = connection else {
                    let fresh = try PostgresConnection(uri: uri)
                    try fresh.execute("LISTEN \(PostgresChangeLog.channel)")
                    try look(fresh)
                    connection = fresh
                    if isAway {
                        isAway = false
                        report(.back)
                    }
                    // What was committed before it listened, or while the server was away, is read now.
                    try ringNoting(fresh)
                    continue
                }
                var rings = try !listening.notifications(waitingUpTo: min(interval, stopCheck)).isEmpty
                if !rings, let horizon = heldBackBelow, ContinuousClock.now - lastCheck >= interval {
                    lastCheck = .now
                    let (oldestRunning, _) = try snapshot(on: listening)
                    rings = oldestRunning >= horizon
                }
                if !rings, ContinuousClock.now - lastLook >= interval {
                    // A doorbell missed: the log moved without a notification.
                    let before = lastEntry
                    try look(listening)
                    rings = lastEntry != before
                }
                if !rings, ContinuousClock.now - lastRing >= Self.safetyRing(every: interval) {
                    // Now and then whatever happened: a read the last ring brought may have failed, and the
                    // watcher must not wait for the next commit to catch up.
                    rings = true
                }
                if rings { try ringNoting(listening) }
            } catch is StoreReplaced {
                report(.replaced)
                return
            } catch {
                connection = nil
                if !isAway && !stopped.withLock({ $0 }) {
                    isAway = true
                    let detail = (error as? PostgresError)?.message ?? "\(error)"
                    report(.lost(detail: StoreLocation.redacting(detail, passwordsOf: uri)))
                }
                Thread.sleep(forTimeInterval: seconds(interval))
            }
        }
    }

    /// The store the listener follows was replaced under it.
    private struct StoreReplaced: Error {}

    /// The first transaction id not yet handed out, when a transaction of this database below it is still running.
    private static func runningTransactions(on connection: PostgresConnection) throws -> UInt64? {
        let (oldestRunning, nextUnassigned) = try snapshot(on: connection)
        return oldestRunning < nextUnassigned ? nextUnassigned : nil
    }

    /// The change log's position (the oldest transaction of this database still running) and the next
    /// transaction id to be handed out, from one snapshot: one statement, since a ring waits for it.
    private static func snapshot(on connection: PostgresConnection) throws -> (UInt64, UInt64) {
        let (position, next) = try PostgresChangeLog.currentPositionAndNextTransaction(on: connection)
        return (position.watermark, next)
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
