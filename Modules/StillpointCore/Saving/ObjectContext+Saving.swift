extension ObjectContext {
    /// Saves the unsaved changes: to the store in one transaction, or to the parent for a child context.
    ///
    /// The write runs on the store's writer, never on the main actor. A save that fails changes nothing and
    /// leaves the context's changes in place; conflicts are resolved by ``mergePolicy``.
    @discardableResult
    public func save() async throws -> ChangeSet? {
        // One save at a time: the next starts from what this one left unsaved.
        while isSaving {
            await withCheckedContinuation { savesWaiting.append($0) }
        }
        isSaving = true
        defer {
            isSaving = false
            if !savesWaiting.isEmpty { savesWaiting.removeFirst().resume() }
        }
        guard graph.hasChanges || !graph.attributeMisuses.isEmpty else { return nil }
        // A save moves a pinned context on: its reads see the latest state, and the next read after it takes the
        // store's state then, which holds the save (``pinQueryGeneration()``).
        let wasPinned = graph.isPinned
        graph.unpinGeneration()
        defer { graph.pinsAtNextRead = wasPinned }
        if let parent {
            let (changes, objects) = try graph.makeChildChanges()
            try await parent.absorb(changes)
            graph.didPushToParent(changes, from: objects)
            return nil
        }
        let (transaction, objects) = try graph.makeSaveTransaction()
        let hub = self.hub
        let flag = interruptFlag
        let outcome: SaveTransaction.Outcome
        if isViewContext {
            outcome = try await store.writingAsync(interruptedBy: flag) { writer in try writer.save(transaction, hub: hub) }
        } else {
            // A background context's queue may block on the writer: that is what it is for.
            outcome = try store.writing(interruptedBy: flag) { writer in try writer.save(transaction, hub: hub) }
        }
        graph.apply(outcome, of: transaction, to: objects)
        if !transaction.inserts.isEmpty, graph.pendingObjectsReferToUnsaved {
            // Objects changed while the save ran may refer to what it inserted.
            var permanentIDs: [ObjectID: ObjectID] = [:]
            for (insert, result) in zip(transaction.inserts, outcome.inserts) { permanentIDs[insert.id] = result?.id }
            graph.resolveReferences(permanentIDs, includingSaved: false)
        }
        if childEvents.hasSubscribers {
            childEvents.publish(ParentEvent(saved: outcome, of: transaction))
        }
        if let changeSet = outcome.changeSet { lastSavedChangeSet = changeSet }
        if let changeSet = outcome.changeSet { graph.didTakeIn(changeSet) }
        return outcome.changeSet
    }
}
