import StillpointCatalog
import StillpointReport
import StillpointStatistics

/// The statistic modules and report renderers of the running tool, as ``Stillpoint/main(modules:origin:renderers:)``
/// was given them.
enum ToolModules {
    /// Set for the whole run; the built-in modules unless the tool was started with others.
    @TaskLocal static var current = catalog(BuiltInStatistics.modules, origin: "this tool")

    /// Set for the whole run; Stillpoint's own renderers unless the tool was started with more.
    @TaskLocal static var renderers = ReportRenderers.builtIn

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
