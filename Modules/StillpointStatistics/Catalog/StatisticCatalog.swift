import StillpointCore

/// The statistics a report can run, by id: the registered modules' and the manifest's custom ones.
///
/// ```swift
/// let catalog = try StatisticCatalog(modules: [TotalStatistics.self, StreakStatistics.self])
/// let streak = try catalog.statistic(id: "current_streak")
/// ```
public struct StatisticCatalog: Sendable {
    public private(set) var statistics: [any Statistic]
    /// The names of the modules the statistics came from, in order.
    public let moduleNames: [String]
    /// The module each statistic came from, by id; statistics added one by one have none.
    private var modulesByID: [String: String] = [:]

    /// A catalog of the modules' statistics; two statistics with one id are an error.
    public init(modules: [any StatisticModule.Type]) throws {
        try self.init(checking: modules.map { ModuleCatalog.Module(name: $0.name, origin: .builtIn, statistics: $0.statistics) })
    }

    /// A catalog of the statistics of `modules`; two statistics with one id are an error.
    init(checking modules: [ModuleCatalog.Module]) throws {
        self.moduleNames = modules.map(\.name)
        self.statistics = []
        for module in modules {
            for statistic in module.statistics {
                try add(statistic)
                modulesByID[statistic.id] = module.name
            }
        }
    }

    /// A catalog of the statistics of `modules` in which the first statistic with an id keeps it: for a
    /// manifest's registration, which reports the others itself.
    package init(firstOfEachID modules: [ModuleCatalog.Module]) {
        self.moduleNames = modules.map(\.name)
        self.statistics = []
        for module in modules {
            for statistic in module.statistics where modulesByID[statistic.id] == nil {
                statistics.append(statistic)
                modulesByID[statistic.id] = module.name
            }
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

    /// The name of the module the statistic `id` came from; `nil` for one added by itself (a custom statistic).
    ///
    /// ```swift
    /// catalog.moduleName(of: "current_streak")   // "StreakStatistics"
    /// ```
    public func moduleName(of id: String) -> String? {
        modulesByID[id]
    }

    public var ids: [String] { statistics.map(\.id) }
}
