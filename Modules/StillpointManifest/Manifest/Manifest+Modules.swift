import Foundation
import PracticeLog
import StillpointCore
import StillpointStatistics

extension Manifest {
    /// Prepares every entry against the modules the manifest registers from `modules` (under `modules:`,
    /// else every one of them) plus its custom statistics.
    ///
    /// An id resolves within the registered modules only. A name under `modules:` that is not a module, or
    /// two registered modules that define one id, is an error at its place in the manifest.
    ///
    /// ```swift
    /// // modules: [TotalStatistics, CareStatistics]
    /// let entries = try manifest.prepare(modules: ModuleCatalog(BuiltInStatistics.modules + [CareStatisticsModule.self]))
    /// ```
    ///
    /// - Throws: ``ManifestErrors`` with every problem, each pointing at the manifest.
    public func prepare(modules: ModuleCatalog) throws(ManifestErrors) -> [PreparedEntry] {
        let registration = register(from: modules)
        let (entries, errors) = prepareEntries(registration)
        guard errors.isEmpty else { throw ManifestErrors(errors) }
        return entries
    }

    /// The modules of `modules` that the manifest registers: those its `modules:` list names that exist, in
    /// its order, else all of them.
    ///
    /// ```swift
    /// manifest.registeredModules(from: catalog).map(\.name)   // ["TotalStatistics", "CareStatistics"]
    /// ```
    public func registeredModules(from modules: ModuleCatalog) -> [ModuleCatalog.Module] {
        guard let names = self.modules else { return modules.modules }
        return names.compactMap { modules.module(named: $0) }
    }

    /// Every problem of the manifest's text, its registration and its entries against `modules`, in the order
    /// of the file: what `stillpoint validate` prints. Empty when the manifest is ready to run.
    public static func validate(yaml: String, file: String? = nil, modules: ModuleCatalog,
                                schema: Schema = Session.schema,
                                formats: [ReportFormat] = ReportFormat.builtIn) -> [ManifestError] {
        var reader = ManifestReader(yaml: yaml, file: file, schema: schema, formats: formats)
        let manifest = reader.read()
        return sorted(reader.errors + manifest.prepareEntries(manifest.register(from: modules)).errors)
    }

    /// Every problem of the manifest at `url`; see ``validate(yaml:file:modules:schema:formats:)``.
    public static func validate(contentsOf url: URL, modules: ModuleCatalog, schema: Schema = Session.schema,
                                formats: [ReportFormat] = ReportFormat.builtIn) -> [ManifestError] {
        do {
            return validate(yaml: try text(of: url), file: url.path, modules: modules, schema: schema, formats: formats)
        } catch {
            return error.errors
        }
    }

    // MARK: Registering

    /// The statistics an entry may name, the modules left out, and the problems of the `modules:` list.
    struct Registration {
        var catalog: StatisticCatalog
        var unregistered: [ModuleCatalog.Module] = []
        var errors: [ManifestError] = []
    }

    /// Registers the modules of `modules` that the manifest names (all without `modules:`), and `loose`
    /// statistics that belong to no module.
    func register(from modules: ModuleCatalog, loose: [any Statistic] = []) -> Registration {
        var errors: [ManifestError] = []
        for name in self.modules ?? [] where modules.module(named: name) == nil {
            let list = modules.names.isEmpty ? "this tool has no statistic modules"
                : "the modules are: \(modules.names.joined(separator: ", ")) (`stillpoint statistics` lists their statistics)"
            errors.append(error(at: moduleLocations[name], "there is no statistic module '\(name)'"
                                + ManifestReader.suggest(name, modules.names, list)))
        }
        let registered = registeredModules(from: modules)
        // The first module to define an id keeps it; each later one that defines it again is an error once,
        // at its name under `modules:`, naming every id the two share.
        var owners: [String: String] = [:]
        for module in registered {
            var shared: [String: [String]] = [:]
            for statistic in module.statistics {
                if let owner = owners[statistic.id] {
                    shared[owner, default: []].append(statistic.id)
                } else {
                    owners[statistic.id] = module.name
                }
            }
            for (owner, ids) in shared.sorted(by: { $0.key < $1.key }) {
                errors.append(conflict(owner, module.name, ids: ids))
            }
        }
        var catalog = StatisticCatalog(firstOfEachID: registered)
        for statistic in loose where !catalog.ids.contains(statistic.id) {
            try? catalog.add(statistic)
        }
        let names = Set(registered.map(\.name))
        return Registration(catalog: catalog, unregistered: modules.modules.filter { !names.contains($0.name) }, errors: errors)
    }

    /// Two registered modules that define the same ids.
    private func conflict(_ first: String, _ second: String, ids: [String]) -> ManifestError {
        let what = ids.count == 1 ? "the statistic '\(ids[0])'" : "the statistics " + ids.map { "'\($0)'" }.joined(separator: ", ")
        if first == second {
            return error(at: moduleLocations[first] ?? rootLocation,
                         "the module '\(first)' defines \(what) more than once; a module's ids must be unique")
        }
        if modules != nil {
            return error(at: moduleLocations[second], "the modules '\(first)' and '\(second)' both define \(what), so an "
                         + "entry could mean either; register only one of them under `modules:`")
        }
        return error(at: rootLocation, "the modules '\(first)' and '\(second)' both define \(what), and without a "
                     + "`modules:` list every module is registered; add `modules:` naming the ones this report uses, only one of these two")
    }

    /// `catalog`'s statistics as modules, by the module each came from, and those that came from none.
    static func modules(of catalog: StatisticCatalog) -> (modules: ModuleCatalog, loose: [any Statistic]) {
        var modules = ModuleCatalog()
        for name in catalog.moduleNames {
            modules.add(ModuleCatalog.Module(name: name, origin: .builtIn,
                                             statistics: catalog.statistics.filter { catalog.moduleName(of: $0.id) == name }))
        }
        return (modules, catalog.statistics.filter { catalog.moduleName(of: $0.id) == nil })
    }
}
