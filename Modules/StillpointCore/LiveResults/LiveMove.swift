/// A row that changed its place between two snapshots: from its position in the earlier one to its position
/// in the later one.
public struct LiveMove: Sendable, Hashable {
    public var from: LivePosition
    public var to: LivePosition

    public init(from: LivePosition, to: LivePosition) {
        self.from = from
        self.to = to
    }
}
