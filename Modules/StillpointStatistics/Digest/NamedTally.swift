/// The sessions of one value of a text attribute (a kind, a source): how many and how long.
public struct NamedTally: Sendable, Hashable {
    /// The value; empty for sessions that have none.
    public var name: String
    public var tally: SessionTally

    public init(name: String, tally: SessionTally) {
        self.name = name
        self.tally = tally
    }
}
