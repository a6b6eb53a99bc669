/// The change sets saved after a ``HistoryToken``, oldest first, and the token to continue from.
///
/// The token is the store's position after these changes: on SQLite the last change set's sequence number, on
/// PostgreSQL a watermark past every transaction read (change sets there are numbered as they start, not as they
/// commit, so a change set's own number is no place to continue from).
///
/// ```swift
/// let history = try container.history(after: token)
/// for changeSet in history { print(changeSet.inserted.count) }
/// token = history.token
/// ```
public struct ChangeHistory: Sendable, RandomAccessCollection {
    public let changeSets: [ChangeSet]
    /// Where to continue from: the history after it holds only what was saved after these change sets.
    public let token: HistoryToken
    /// Whether a transaction that ended while the history was read held it back (a store that cannot tell which
    /// of its database's transactions are still running from one snapshot, as PostgreSQL's): what it committed
    /// comes only in a read in a new transaction, which should follow soon rather than wait for the next change.
    public let mayBeBehind: Bool

    package init(changeSets: [ChangeSet], token: HistoryToken, mayBeBehind: Bool = false) {
        self.changeSets = changeSets
        self.token = token
        self.mayBeBehind = mayBeBehind
    }

    public var startIndex: Int { changeSets.startIndex }
    public var endIndex: Int { changeSets.endIndex }
    public subscript(position: Int) -> ChangeSet { changeSets[position] }
}
