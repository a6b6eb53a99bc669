/// A place in a store's change log: the changes after it are what a context has not seen yet.
///
/// Tokens are plain values: keep one (in memory or on disk) and ask for the history after it later.
public struct HistoryToken: Sendable, Hashable, Codable, Comparable {
    public let sequence: Int64

    public init(sequence: Int64) {
        self.sequence = sequence
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.sequence < rhs.sequence }
}
