extension PersistentContainer {
    /// Returns once every context on the store that merges automatically has merged `changeSet`. Child contexts
    /// merge what their parent announces instead, and are not waited for.
    ///
    /// An operation that saves awaits this before it reports that it finished, so that whoever sees it finish
    /// also sees its changes in those contexts. A merge whose read failed (the context was interrupted, the
    /// server cancelled the read) counts as made: the context's ``ObjectContext/lastMergeError`` says so, and it
    /// merges that change set again before its next one, and (unless it was interrupted) by itself after a pause.
    public func waitUntilMerged(_ changeSet: ChangeSet) async {
        await mergeTracker.waitUntilMerged(through: hub.publication(of: changeSet))
    }
}
