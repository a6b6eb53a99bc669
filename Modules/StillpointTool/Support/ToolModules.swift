import StillpointCatalog
import StillpointStatistics

/// The statistic modules of the running tool, as ``Stillpoint/main(modules:origin:)`` was given them.
enum ToolModules {
    /// Set for the whole run; the built-in modules unless the tool was started with others.
    @TaskLocal static var current = catalog(BuiltInStatistics.modules, origin: "this tool")

    /// `modules` in order, each built in when it is one of Stillpoint's own, else from `origin`.
    static func catalog(_ modules: [any StatisticModule.Type], origin: String) -> ModuleCatalog {
        let builtIn = Set(BuiltInStatistics.modules.map { ObjectIdentifier($0) })
        var catalog = ModuleCatalog()
        for module in modules {
            catalog.add([module], origin: builtIn.contains(ObjectIdentifier(module)) ? .builtIn : .addedBy(origin))
        }
        return catalog
    }
}
