import Foundation
import ArgumentParser
import StillpointCatalog
import StillpointStatistics

/// `stillpoint statistics`: every statistic, with its parameters and their defaults.
struct StatisticsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "statistics",
        abstract: "List the statistics a manifest can run, with their parameters and defaults.",
        discussion: """
            Examples:
              stillpoint statistics
              stillpoint statistics current_streak
            """)

    @Argument(help: "Describe only these statistics.")
    var ids: [String] = []

    func run() throws {
        let catalog = try BuiltInStatistics.catalog()
        let statistics = try ids.isEmpty ? catalog.statistics : ids.map { try catalog.statistic(id: $0) }
        var text = ""
        for statistic in statistics {
            let description = statistic.description
            text += "\(statistic.id) — \(description.name)\n  \(description.summary)\n"
            for parameter in description.parameters {
                text += "    \(parameter.name) (\(parameter.type), default: \(parameter.defaultValue ?? "none")): \(parameter.meaning)\n"
            }
            text += "\n"
        }
        Output.print(text.trimmingCharacters(in: .newlines))
    }
}
