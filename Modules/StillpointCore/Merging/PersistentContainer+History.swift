import Foundation

extension PersistentContainer {
    /// The token of the latest change in the store's change log.
    public func currentHistoryToken() throws -> HistoryToken {
        HistoryToken(sequence: try store.reading(interruptedBy: nil) { reader in try reader.lastHistorySequence() })
    }

    /// The change sets saved after `token` by any process, oldest first (Core Data's persistent history).
    ///
    /// Throws ``StoreError/historyPurged(path:token:purgedThrough:)`` when the history after `token` has been
    /// purged in part, and ``StoreError/corrupt(path:detail:)`` when an entry of it cannot be read: a partial
    /// history would leave the caller's objects silently stale.
    ///
    /// ```swift
    /// let history = try container.history(after: token)
    /// token = history.token
    /// ```
    public func history(after token: HistoryToken) throws -> ChangeHistory {
        let path = store.location.displayPath
        return try store.reading(interruptedBy: nil) { reader in try reader.completeHistory(after: token.sequence, path: path) }
    }

    /// Deletes the change log up to and including `token`; a token from before it can no longer catch up, and
    /// ``history(after:)`` says so.
    public func purgeHistory(through token: HistoryToken) throws {
        try store.writing(interruptedBy: nil) { writer in try writer.purgeHistory(through: token.sequence) }
    }

    /// Watches the store for changes written by other processes (an import in a second terminal) and
    /// publishes them on ``changeSets``, so that contexts that merge automatically catch up by themselves.
    ///
    /// A SQLite store file wakes at once when a Stillpoint writer in another process commits (it rings a doorbell
    /// file beside the store, which inotify reports) and is checked every `interval` as well, for where the doorbell
    /// cannot ring (no inotify, a folder its writer cannot write); a PostgreSQL store wakes at once when another process
    /// commits (its saves ring `NOTIFY`), checks every `interval` while a transaction still running in the same
    /// database holds later changes back, and looks at the change log's last entry every `interval`, so that a
    /// save whose notification was missed is read within the interval. A PostgreSQL store replaced under the
    /// watch (its database dropped and made again) ends it: its changes do not follow the old store's.
    ///
    /// Returns the watching task; cancel it to stop.
    ///
    /// ```swift
    /// let watcher = container.observeOtherProcesses(every: .milliseconds(250))
    /// defer { watcher.cancel() }
    /// ```
    public func observeOtherProcesses(every interval: Duration = .milliseconds(500)) -> Task<Void, Never> {
        let store = self.store
        let hub = self.hub
        let start = (try? currentHistoryToken().sequence) ?? 0
        let signals = store.otherProcessCommits(every: interval)
        // The reads block on the store: on a queue of their own, not on a thread of the shared pool, which a busy
        // process may have none of to spare.
        let queue = DispatchQueue(label: "stillpoint.history.watch")
        return Task.detached {
            var seen = start
            for await _ in signals {
                if Task.isCancelled { return }
                let after = seen
                let read = await withCheckedContinuation { continuation in
                    queue.async {
                        // A damaged entry is passed over: the watcher has no one to tell, and must not stop at it.
                        continuation.resume(returning: try? store.reading(interruptedBy: nil, { reader in
                            try reader.changeSets(after: after, excludingProcess: store.processToken) { _ in }
                        }))
                    }
                }
                if let (changes, next) = read {
                    for changeSet in changes { hub.publish(changeSet) }
                    seen = next
                }
            }
        }
    }
}

extension ObjectContext {
    /// Merges every change saved after `token` (by this process or another) and returns the new token.
    ///
    /// Throws as ``PersistentContainer/history(after:)`` does when the history after `token` is not complete.
    ///
    /// ```swift
    /// token = try await context.perform { [token] context in try context.mergeHistory(after: token) }
    /// ```
    public func mergeHistory(after token: HistoryToken) throws -> HistoryToken {
        let history = try graph.history(after: token)
        for changeSet in history { try graph.merge(changeSet) }
        return history.token
    }
}
