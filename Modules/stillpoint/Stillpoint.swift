import ArgumentParser

/// `stillpoint`: reports over a yoga and meditation practice log, and the tools around them.
@main
struct Stillpoint: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stillpoint",
        abstract: "Statistics reports over years of yoga and meditation sessions.",
        discussion: """
            With no store named, commands use a default store that is created on first use from a demo history, \
            so `stillpoint report` prints a real report straight away.

            Examples:
              stillpoint report
              stillpoint report --format html --output practice.html
              stillpoint import export.csv --format insight-timer --store my.sqlite
              stillpoint report --store my.sqlite --config my-report.yaml
            """,
        subcommands: [
            ReportCommand.self, ImportCommand.self, ExportCommand.self, StatisticsCommand.self,
            ValidateCommand.self, DemoCommand.self,
        ],
        defaultSubcommand: ReportCommand.self)
}
