import Foundation
import PracticeLog
import StillpointCore
import StillpointManifest
import StillpointStatistics

/// The contract every statistic keeps, as checks a test target runs over its module: the statistic describes
/// itself, its examples hold, it reads only the parameters it describes (so that a manifest can catch any
/// other), and it prepares with its defaults and runs over an empty log.
///
/// Each check returns what is wrong, one line per problem, and nothing for a statistic that keeps the
/// contract; the built-in modules and modules from outside Stillpoint run the same checks:
///
/// ```swift
/// @Test func careStatisticsKeepTheContract() async {
///     #expect(await StatisticConformance.problems(of: CareStatisticsModule.self) == [])
/// }
/// ```
public enum StatisticConformance {
    /// Every problem of every statistic of `module`, and of the module's ids.
    public static func problems(of module: any StatisticModule.Type) async -> [String] {
        var problems = idProblems(of: module.statistics)
        for statistic in module.statistics { problems += await self.problems(of: statistic) }
        return problems
    }

    /// Every problem of `statistic`.
    public static func problems(of statistic: any Statistic) async -> [String] {
        var problems = descriptionProblems(of: statistic)
        problems += await exampleProblems(of: statistic)
        problems += parameterReadingProblems(of: statistic)
        problems += unknownParameterProblems(of: statistic)
        problems += await defaultsProblems(of: statistic)
        return problems
    }

    /// Ids that are not snake_case or that two statistics share.
    public static func idProblems(of statistics: [any Statistic]) -> [String] {
        var problems: [String] = []
        var seen: Set<String> = []
        for statistic in statistics {
            if !isSnakeCase(statistic.id) { problems.append("'\(statistic.id)' is not a snake_case id") }
            if !seen.insert(statistic.id).inserted { problems.append("two statistics have the id '\(statistic.id)'") }
        }
        return problems
    }

    /// A name and summary, at least two examples of which one on an empty log, and parameters that are
    /// explained, snake_case, described once, and the only ones the examples give.
    public static func descriptionProblems(of statistic: any Statistic) -> [String] {
        let id = statistic.id, description = statistic.description
        var problems: [String] = []
        if description.name.trimmingCharacters(in: .whitespaces).isEmpty { problems.append("\(id) has no name") }
        if description.summary.trimmingCharacters(in: .whitespaces).isEmpty { problems.append("\(id) has no summary") }
        if description.examples.count < 2 { problems.append("\(id) has fewer than two examples") }
        if !description.examples.contains(where: { $0.sessions.isEmpty }) { problems.append("\(id) has no example on an empty log") }
        let names = description.parameters.map(\.name)
        if Set(names).count != names.count { problems.append("\(id) describes a parameter twice: \(names)") }
        for parameter in description.parameters {
            if !isSnakeCase(parameter.name) { problems.append("\(id): parameter '\(parameter.name)' is not snake_case") }
            if parameter.type.isEmpty || parameter.meaning.isEmpty {
                problems.append("\(id): parameter '\(parameter.name)' is not explained")
            }
        }
        for example in description.examples {
            let undescribed = Set(example.parameters.keys).subtracting(names)
            if !undescribed.isEmpty {
                problems.append("\(id): the example '\(example.summary)' gives undescribed parameters \(undescribed.sorted())")
            }
        }
        return problems
    }

    /// Each example, run over its sessions in a fresh in-memory store, gives the value it expects.
    public static func exampleProblems(of statistic: any Statistic) async -> [String] {
        var problems: [String] = []
        for example in statistic.description.examples {
            do {
                let value = try await example.run(statistic).value
                if value != example.expected {
                    problems.append("\(statistic.id): the example '\(example.summary)' gives \(value), not \(example.expected)")
                }
            } catch {
                problems.append("\(statistic.id): the example '\(example.summary)' fails: \(error)")
            }
        }
        return problems
    }

    /// Preparing with no parameters, and with each example's, reads only parameters the statistic describes.
    public static func parameterReadingProblems(of statistic: any Statistic) -> [String] {
        let described = Set(statistic.description.parameters.map(\.name))
        var problems: [String] = []
        for values in [[:]] + statistic.description.examples.map(\.parameters) {
            let log = ParameterReadLog()
            var parameters = StatisticParameters(statistic: statistic.id, values: values)
            parameters.readLog = log
            do {
                _ = try statistic.prepare(parameters)
            } catch {
                problems.append("\(statistic.id) cannot be prepared with \(values.keys.sorted()): \(error)")
            }
            let undescribed = log.names.subtracting(described)
            if !undescribed.isEmpty {
                problems.append("\(statistic.id) reads parameters it does not describe: \(undescribed.sorted())")
            }
        }
        return problems
    }

    /// A manifest that gives the statistic a parameter it does not describe is refused at that parameter.
    public static func unknownParameterProblems(of statistic: any Statistic) -> [String] {
        let id = statistic.id
        let errors = Manifest.validate(yaml: "statistics:\n  - id: \(id)\n    parameters: {not_a_parameter: 1}\n",
                                       file: "conformance.yaml", modules: modules(of: statistic))
        guard errors.map(\.location?.line) == [3], errors.first?.message.hasPrefix("'\(id)' has no parameter 'not_a_parameter'") == true
        else {
            return ["\(id): a manifest giving it an unknown parameter is not refused at that parameter: "
                    + (errors.isEmpty ? "no error" : errors.map(\.locatedMessage).joined(separator: "; "))]
        }
        return []
    }

    /// The statistic prepares from a manifest with its defaults, and runs over an empty log.
    public static func defaultsProblems(of statistic: any Statistic) async -> [String] {
        do {
            let entries = try Manifest(yaml: "statistics: [\(statistic.id)]").prepare(modules: modules(of: statistic))
            let container = try await StatisticExample.store(holding: [])
            for entry in entries {
                let prepared = entry.prepared
                _ = try await container.newBackgroundContext().perform { context in try prepared.compute(context) }
            }
            return []
        } catch {
            return ["\(statistic.id) does not prepare and run with its defaults over an empty log: \(error)"]
        }
    }

    /// A module of `statistic` alone.
    private static func modules(of statistic: any Statistic) -> ModuleCatalog {
        var modules = ModuleCatalog()
        modules.add(ModuleCatalog.Module(name: "Conformance", origin: .builtIn, statistics: [statistic]))
        return modules
    }

    /// The form of ids and parameter names: `minimum_duration`, `weekly_streak`.
    static func isSnakeCase(_ name: String) -> Bool {
        name.range(of: "^[a-z][a-z0-9]*(_[a-z0-9]+)*$", options: .regularExpression) != nil
    }
}
