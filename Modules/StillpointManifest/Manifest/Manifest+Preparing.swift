import Foundation
import PracticeLog
import StillpointCore
import StillpointStatistics

extension Manifest {
    /// Prepares every entry, in order, against `catalog` plus the manifest's custom statistics.
    ///
    /// Each entry's id must name a statistic, its parameters must be ones the statistic describes, and the
    /// statistic's own checks (``Statistic/prepare(_:)``) must pass; every failure is collected.
    ///
    /// ```swift
    /// let entries = try manifest.prepare(catalog: try BuiltInStatistics.catalog())
    /// entries.map(\.name)   // ["session_count", "current_streak", "current_streak_10m", ...]
    /// ```
    ///
    /// - Throws: ``ManifestErrors`` with every problem, each pointing at the manifest.
    public func prepare(catalog: StatisticCatalog) throws(ManifestErrors) -> [PreparedEntry] {
        let (entries, errors) = prepareEntries(catalog: catalog)
        guard errors.isEmpty else { throw ManifestErrors(errors) }
        return entries
    }

    /// `catalog` with the manifest's custom statistics added.
    ///
    /// - Throws: ``ManifestErrors`` when a custom statistic takes the id of another.
    public func catalog(adding catalog: StatisticCatalog) throws(ManifestErrors) -> StatisticCatalog {
        let (combined, errors) = combinedCatalog(catalog)
        guard errors.isEmpty else { throw ManifestErrors(errors) }
        return combined
    }

    /// Every problem of the manifest's text and of preparing its entries, in the order of the file: what
    /// `stillpoint validate` prints. Empty when the manifest is ready to run.
    ///
    /// ```swift
    /// for problem in Manifest.validate(yaml: text, file: "my.yaml", catalog: catalog) { print(problem) }
    /// ```
    public static func validate(yaml: String, file: String? = nil, catalog: StatisticCatalog,
                                schema: Schema = Session.schema,
                                formats: [ReportFormat] = ReportFormat.builtIn) -> [ManifestError] {
        var reader = ManifestReader(yaml: yaml, file: file, schema: schema, formats: formats)
        let manifest = reader.read()
        return sorted(reader.errors + manifest.prepareEntries(catalog: catalog).errors)
    }

    /// Every problem of the manifest at `url`; see ``validate(yaml:file:catalog:schema:formats:)``.
    public static func validate(contentsOf url: URL, catalog: StatisticCatalog, schema: Schema = Session.schema,
                                formats: [ReportFormat] = ReportFormat.builtIn) -> [ManifestError] {
        do {
            return validate(yaml: try text(of: url), file: url.path, catalog: catalog, schema: schema, formats: formats)
        } catch {
            return error.errors
        }
    }

    // MARK: Checking entries

    /// Prepares the entries against `catalog`'s modules that the manifest registers (see ``register(from:loose:)``).
    func prepareEntries(catalog: StatisticCatalog) -> (entries: [PreparedEntry], errors: [ManifestError]) {
        let (modules, loose) = Self.modules(of: catalog)
        return prepareEntries(register(from: modules, loose: loose))
    }

    func prepareEntries(_ registration: Registration) -> (entries: [PreparedEntry], errors: [ManifestError]) {
        let (catalog, catalogErrors) = combinedCatalog(registration.catalog)
        var errors = registration.errors + catalogErrors
        var prepared: [PreparedEntry] = []
        for entry in entries {
            let statistic: any Statistic
            do {
                statistic = try catalog.statistic(id: entry.id)
            } catch {
                if !unresolvedIDs.contains(entry.id) {
                    errors.append(self.error(at: entry.idLocation, unknownID: entry.id, in: catalog,
                                             unregistered: registration.unregistered))
                }
                continue
            }
            if entry.name != entry.id, catalog.ids.contains(entry.name) {
                errors.append(error(at: entry.location, "the name '\(entry.name)' is the id of another statistic, which would "
                                    + "make the report ambiguous; choose another name, e.g. \(entry.id)_\(entry.name)"))
            }
            let described = statistic.description.parameters.map(\.name)
            let unknown = entry.parameters.keys.filter { !described.contains($0) }.sorted()
            for name in unknown {
                let list = described.isEmpty ? "it takes no parameters" : "its parameters are: \(described.joined(separator: ", "))"
                errors.append(error(at: entry.parameterKeyLocations[name] ?? entry.parameters[name]?.location ?? entry.location,
                                    "'\(entry.id)' has no parameter '\(name)'"
                                    + ManifestReader.suggest(name, described, "\(list) (`stillpoint statistics \(entry.id)` describes them)")))
            }
            // Prepared with the known parameters still, so that their mistakes are reported in the same run.
            let parameters = StatisticParameters(statistic: entry.name, values: entry.parameters.filter { described.contains($0.key) },
                                                 environment: environment)
            do {
                let computation = try statistic.prepare(parameters)
                if unknown.isEmpty {
                    prepared.append(PreparedEntry(entry: entry, statistic: statistic, parameters: parameters, prepared: computation))
                }
            } catch let error as ParameterError {
                errors.append(self.error(at: error.location ?? entry.location,
                                         "parameter '\(error.parameter)' of '\(error.statistic)': \(error.message)"))
            } catch {
                errors.append(self.error(at: entry.location, "'\(entry.name)' cannot be prepared: \(error)"))
            }
        }
        return (prepared, Self.sorted(errors))
    }

    /// The catalog with the custom statistics added, and an error for each one whose id is taken.
    private func combinedCatalog(_ base: StatisticCatalog) -> (StatisticCatalog, [ManifestError]) {
        var catalog = base
        var errors: [ManifestError] = []
        for statistic in customStatistics {
            do {
                try catalog.add(statistic)
            } catch {
                errors.append(self.error(at: customLocations[statistic.id],
                                         "the custom statistic '\(statistic.id)' takes the id of another statistic; choose another id, e.g. my_\(statistic.id)"))
            }
        }
        return (catalog, errors)
    }

    private func error(at location: SourceLocation?, unknownID id: String, in catalog: StatisticCatalog,
                       unregistered: [ModuleCatalog.Module]) -> ManifestError {
        let owners = unregistered.filter { $0.statistics.contains { $0.id == id } }.map { "'\($0.name)'" }
        if !owners.isEmpty {
            return error(at: location, "the statistic '\(id)' is in the module \(owners.joined(separator: " and the module ")), "
                         + "which `modules:` does not register; add it to the list")
        }
        return error(at: location, "there is no statistic '\(id)'" + ManifestReader.suggest(
            id, catalog.ids, "`stillpoint statistics` lists them, and `custom_statistics:` declares new ones"))
    }

    func error(at location: SourceLocation?, _ message: String) -> ManifestError {
        let line = location.flatMap { sourceLines.indices.contains($0.line - 1) ? sourceLines[$0.line - 1] : nil }
        return ManifestError(location: location, message: message, sourceLine: line)
    }

    /// Errors in the order of the file; those without a place first.
    static func sorted(_ errors: [ManifestError]) -> [ManifestError] {
        errors.enumerated().sorted { lhs, rhs in
            let left = (lhs.element.location?.line ?? 0, lhs.element.location?.column ?? 0, lhs.offset)
            let right = (rhs.element.location?.line ?? 0, rhs.element.location?.column ?? 0, rhs.offset)
            return left < right
        }.map(\.element)
    }
}
