extension ObjectContext {
    /// Brings the objects this context holds up to a change set saved elsewhere.
    ///
    /// Changed objects are re-read with this context's unsaved changes kept on top (as with
    /// `refresh(_:mergeChanges: true)`); deleted ones are marked deleted and dropped; objects the context does
    /// not hold are not loaded.
    ///
    /// ```swift
    /// for await changes in container.changeSets {
    ///     try await viewContext.perform { try $0.mergeChanges(from: changes) }
    /// }
    /// ```
    public func mergeChanges(from changeSet: ChangeSet) throws {
        try graph.merge(changeSet)
    }

    /// Whether the context merges changes by itself, in save order, on its own executor: every save to the
    /// store for a context on the store, or what its parent announces (a sibling's save, the parent's save to
    /// the store) for a child context.
    public var automaticallyMergesChangesFromParent: Bool { mergeTask != nil }

    /// Turns automatic merging on or off.
    ///
    /// ```swift
    /// await container.viewContext.setAutomaticallyMergesChangesFromParent(true)
    /// ```
    public func setAutomaticallyMergesChangesFromParent(_ enabled: Bool) async {
        mergeTask?.cancel()
        mergeTask = nil
        mergeRetry?.task?.cancel()
        mergeRetry = nil
        unmergedChangeSets.removeAll()
        let identity = ObjectIdentifier(self)
        guard enabled else {
            await mergeTracker.unregister(identity)
            return
        }
        if let parent {
            let events = parent.childEvents.subscribe()
            mergeTask = Task { [weak self] in
                for await event in events {
                    guard let self else { return }
                    await self.merge(event)
                }
            }
        } else {
            let changeSets = hub.subscribe()
            await mergeTracker.register(identity, through: hub.lastPublication)
            mergeTask = Task { [weak self] in
                for await changeSet in changeSets {
                    guard let self else { return }
                    await self.autoMerge(changeSet)
                }
            }
        }
    }

    private func merge(_ event: ParentEvent) {
        graph.merge(event)
    }

    private func autoMerge(_ changeSet: ChangeSet) async {
        if changeSet.originContext != graph.origin.context {
            unmergedChangeSets.append(changeSet)
            // Change sets waiting before it are merged first, which would make a read ahead for it out of date.
            if unmergedChangeSets.count == 1 { await readAheadForLiveResults(changeSet) }
        }
        mergeWaiting()
        await mergeTracker.didMerge(ObjectIdentifier(self), through: hub.publication(of: changeSet))
    }

    /// Reads what the live results on this context need for `changeSet` off the context's executor, so that the
    /// merge only applies it: the view context's merges never wait for the store on the main actor. The next
    /// change set waits in the stream meanwhile, so they are still taken in in save order; a read made out of date
    /// by anything taken in meanwhile (a save of this context, a merge by hand) is dropped and the merge reads.
    private func readAheadForLiveResults(_ changeSet: ChangeSet) async {
        let reads = graph.changeObservers.reads(for: changeSet)
        guard !reads.isEmpty else { return }
        let outcomes = await LiveResultsRead.run(reads, on: graph.store, interruptedBy: graph.interruptFlag)
        graph.changeObservers.prepare(outcomes)
    }

    /// Merges the change sets waiting, in save order, up to the first whose read fails.
    ///
    /// An interrupted context keeps that one and the ones after it for its next merge. Any other failure (the
    /// server cancelled the read, a connection dropped) is tried again by itself after a pause
    /// (``MergeRetry``): without it, a change from another process whose merge failed once would leave its
    /// objects stale until some later change came, which may be never.
    private func mergeWaiting() {
        var merged = 0
        defer { unmergedChangeSets.removeFirst(merged) }
        for waiting in unmergedChangeSets {
            do {
                try graph.merge(waiting)
                mergeRetry?.task?.cancel()
                mergeRetry = nil
            } catch is CancellationError {
                lastMergeError = CancellationError()
                return
            } catch {
                lastMergeError = error
                var retry = mergeRetry ?? MergeRetry(now: .now)
                guard !retry.hasExpired(at: .now) else {
                    // Failing for a minute: passed over, as the error says, so that it holds back no other.
                    mergeRetry = nil
                    merged += 1
                    continue
                }
                guard retry.task == nil else { return }
                let pause = retry.nextPause()
                retry.task = Task { [weak self] in
                    try? await Task.sleep(for: pause)
                    await self?.retryMerge()
                }
                mergeRetry = retry
                return
            }
            merged += 1
        }
    }

    private func retryMerge() {
        guard !Task.isCancelled, mergeTask != nil else { return }
        mergeRetry?.task = nil
        mergeWaiting()
    }

    /// Runs `body` against one consistent state of the store: every fetch inside reads the same read
    /// transaction (held in WAL), so a computation of several queries never sees half of a concurrent write.
    ///
    /// ```swift
    /// let (count, total) = try context.withPinnedSnapshot {
    ///     (try context.count(for: request), try context.fetchDictionaries(totals))
    /// }
    /// ```
    public func withPinnedSnapshot<T>(_ body: () throws -> T) throws -> T {
        try graph.withReader { _ in try body() }
    }
}
