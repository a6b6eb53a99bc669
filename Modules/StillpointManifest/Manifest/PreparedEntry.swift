import StillpointStatistics
/// A manifest entry ready to run: its statistic, its checked parameters and the computation.
///
/// ```swift
/// for entry in try manifest.prepare(catalog: catalog) {
///     let result = try await container.newBackgroundContext().perform { try entry.prepared.compute($0) }
///     print(entry.name, result.value)
/// }
/// ```
public struct PreparedEntry: Sendable {
    public var entry: ManifestEntry
    public var statistic: any Statistic
    public var parameters: StatisticParameters
    public var prepared: PreparedStatistic

    public init(entry: ManifestEntry, statistic: any Statistic, parameters: StatisticParameters, prepared: PreparedStatistic) {
        self.entry = entry
        self.statistic = statistic
        self.parameters = parameters
        self.prepared = prepared
    }

    /// The name the result is reported under: the entry's `as`, else the statistic's id.
    public var name: String { entry.name }
    /// The statistic's id.
    public var id: String { entry.id }
}
