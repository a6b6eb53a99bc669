/// What a batch operation changed: the number of rows, their IDs, and the change set it published.
public struct BatchResult: Sendable, Hashable {
    public let count: Int
    public let objectIDs: ObjectIDSet
    /// `nil` when nothing changed.
    public let changeSet: ChangeSet?

    package init(count: Int, objectIDs: ObjectIDSet, changeSet: ChangeSet?) {
        self.count = count
        self.objectIDs = objectIDs
        self.changeSet = changeSet
    }
}
