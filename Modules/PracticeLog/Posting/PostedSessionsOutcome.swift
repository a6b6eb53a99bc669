/// What a post of sessions did, all in one transaction: how many sessions it added, changed and found as they were,
/// and the key of each posted session, in the order posted.
///
/// ```swift
/// let outcome = try await PostedSessions.save(body, for: "alice", in: container)
/// print("\(outcome.inserted) new, \(outcome.updated) changed, \(outcome.unchanged) already there")
/// ```
public struct PostedSessionsOutcome: Sendable, Hashable {
    public var inserted: Int
    public var updated: Int
    public var unchanged: Int
    /// Each posted session's key: the one given, or the one made from its source, start and end
    /// (``SessionRecord/key``); posting a session again with this key changes that session.
    public var keys: [String]

    public init(inserted: Int, updated: Int, unchanged: Int, keys: [String]) {
        self.inserted = inserted
        self.updated = updated
        self.unchanged = unchanged
        self.keys = keys
    }
}
