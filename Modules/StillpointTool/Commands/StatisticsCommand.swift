import Foundation
import ArgumentParser
import StillpointCore
import StillpointStatistics

/// `stillpoint statistics`: every statistic, by module, with its parameters and their defaults.
struct StatisticsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "statistics",
        abstract: "List the statistics a manifest can run, by module, with their parameters and defaults.",
        discussion: """
            Each module is shown with where it comes from: built in, or the tool that added it. A manifest's \
            modules: list registers some of them by name; without it, a report registers them all.

            Examples:
              stillpoint statistics
              stillpoint statistics current_streak
            """)

    @Argument(help: "Describe only these statistics.")
    var ids: [String] = []

    func run() throws {
        let modules = ToolModules.current
        let allIDs = modules.modules.flatMap { $0.statistics.map(\.id) }
        for id in ids where !allIDs.contains(id) {
            throw CatalogError.unknownID(id, suggestion: NameSuggestion.nearestName(to: id, in: allIDs))
        }
        var sections: [String] = []
        for module in modules.modules {
            let statistics = ids.isEmpty ? module.statistics : module.statistics.filter { ids.contains($0.id) }
            guard !statistics.isEmpty else { continue }
            let count = statistics.count == 1 ? "1 statistic" : "\(statistics.count) statistics"
            sections.append("\(module.name) (\(module.origin), \(count))\n\n" + statistics.map(Self.describe).joined(separator: "\n\n"))
        }
        Output.print(sections.joined(separator: "\n\n"), keepingLineBreaks: true)
    }

    /// A statistic's id, name, summary and parameters.
    static func describe(_ statistic: any Statistic) -> String {
        let description = statistic.description
        var text = "\(statistic.id) — \(description.name)\n  \(description.summary)"
        for parameter in description.parameters {
            text += "\n    \(parameter.name) (\(parameter.type), default: \(parameter.defaultValue ?? "none")): \(parameter.meaning)"
        }
        return text
    }
}
