import StillpointCore

/// A statistic with its parameters checked: the computation to run in a background context.
public struct PreparedStatistic: Sendable {
    /// The entities the computation reads, so that a watching report knows which changes affect it.
    public let entities: Set<String>
    public let compute: @Sendable (isolated ObjectContext) throws -> StatisticResult

    public init(entities: Set<String> = ["Session"], compute: @escaping @Sendable (isolated ObjectContext) throws -> StatisticResult) {
        self.entities = entities
        self.compute = compute
    }
}
