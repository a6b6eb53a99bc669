extension ObjectGraph {
    /// Tells the change observers (live results) that the context took in `changeSet`.
    func didTakeIn(_ changeSet: ChangeSet) {
        guard !changeObservers.isEmpty, !changeSet.isEmpty else { return }
        // A copy: an observer may read through the graph while it runs.
        let observers = changeObservers
        observers.notify(changeSet, graph: self)
    }
}
