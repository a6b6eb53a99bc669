extension PersistentContainer {
    /// Returns once every context that merges automatically has merged `changeSet`.
    ///
    /// An operation that saves awaits this before it reports that it finished, so that whoever sees it finish
    /// also sees its changes in those contexts.
    public func waitUntilMerged(_ changeSet: ChangeSet) async {
        await mergeTracker.waitUntilMerged(through: changeSet.sequence)
    }
}
