import StillpointCore

/// The statistics a report can run, by id: the built-in modules' and the manifest's custom ones.
///
/// ```swift
/// let catalog = try StatisticCatalog(modules: [TotalStatistics.self, StreakStatistics.self])
/// let streak = try catalog.statistic(id: "current_streak")
/// ```
public struct StatisticCatalog: Sendable {
    public private(set) var statistics: [any Statistic]
    /// The names of the modules the statistics came from, in order.
    public let moduleNames: [String]

    /// A catalog of the modules' statistics; two statistics with one id are an error.
    public init(modules: [any StatisticModule.Type]) throws {
        self.moduleNames = modules.map { $0.name }
        self.statistics = []
        for module in modules {
            for statistic in module.statistics { try add(statistic) }
        }
    }

    /// Adds a statistic, such as a custom one from a manifest.
    public mutating func add(_ statistic: any Statistic) throws {
        guard !statistics.contains(where: { $0.id == statistic.id }) else {
            throw CatalogError.duplicateID(statistic.id)
        }
        statistics.append(statistic)
    }

    /// The statistic with `id`, or an error that names the nearest id.
    public func statistic(id: String) throws -> any Statistic {
        guard let statistic = statistics.first(where: { $0.id == id }) else {
            throw CatalogError.unknownID(id, suggestion: NameSuggestion.nearestName(to: id, in: statistics.map(\.id)))
        }
        return statistic
    }

    public var ids: [String] { statistics.map(\.id) }
}
