/// Every statistic module a tool has, in order, with where each comes from: what a manifest's `modules:`
/// key chooses from.
///
/// Unlike a ``StatisticCatalog``, two modules here may define one id: that is an error only when a manifest
/// registers both (``Manifest/prepare(modules:)``).
///
/// ```swift
/// var modules = ModuleCatalog(BuiltInStatistics.modules)
/// modules.add([CareStatisticsModule.self], origin: .addedBy("care-stillpoint"))
/// modules.names   // ["SessionTimeStatistics", ..., "CareStatistics"]
/// ```
public struct ModuleCatalog: Sendable {
    /// One module: its name, where it comes from, and its statistics.
    public struct Module: Sendable {
        public var name: String
        public var origin: ModuleOrigin
        public var statistics: [any Statistic]

        public init(name: String, origin: ModuleOrigin, statistics: [any Statistic]) {
            self.name = name
            self.origin = origin
            self.statistics = statistics
        }
    }

    public private(set) var modules: [Module] = []

    /// The modules of `types`, all from `origin`.
    public init(_ types: [any StatisticModule.Type] = [], origin: ModuleOrigin = .builtIn) {
        add(types, origin: origin)
    }

    /// Adds the modules of `types`, from `origin`, after those already here.
    public mutating func add(_ types: [any StatisticModule.Type], origin: ModuleOrigin) {
        for type in types { modules.append(Module(name: type.name, origin: origin, statistics: type.statistics)) }
    }

    /// Adds `module` after those already here.
    public mutating func add(_ module: Module) {
        modules.append(module)
    }

    /// The modules' names, in order.
    public var names: [String] { modules.map(\.name) }

    /// The module named `name`.
    public func module(named name: String) -> Module? {
        modules.first { $0.name == name }
    }
}
