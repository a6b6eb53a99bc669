/// What a statistic computed: a value, and notes that say how (outliers capped, sessions dropped, ...).
public struct StatisticResult: Sendable, Hashable {
    public var value: StatisticValue
    public var notes: [String]

    public init(_ value: StatisticValue, notes: [String] = []) {
        self.value = value
        self.notes = notes
    }
}
