import ArgumentParser
import Foundation
import StillpointCore

/// `stillpoint`: reports over a yoga and meditation practice log, and the tools around them.
struct StillpointCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stillpoint",
        abstract: "Statistics reports over years of yoga and meditation sessions.",
        discussion: """
            With no store named, commands use a default store that is created on first use from a demo history, \
            so `stillpoint report` prints a real report straight away.

            Exit status: 0 success, 1 a statistic, import or export failed, 64 a wrong command line, 65 bad \
            data (a manifest, an import file or a damaged store), 66 a missing input, 69 a PostgreSQL server that \
            cannot be reached, 70 a bug in Stillpoint, 73 an output that cannot be created, 74 an I/O error, 75 \
            try again later (the PostgreSQL server cancelled a statement, or a followed store was replaced), 77 a \
            PostgreSQL role without a right the store needs, 130 stopped by Ctrl-C (within a second; a second \
            Ctrl-C exits at once).

            Examples:
              stillpoint report
              stillpoint report --format html --output practice.html
              stillpoint import export.csv --format insight-timer --store my.sqlite
              stillpoint report --store my.sqlite --config my-report.yaml
            """,
        version: "stillpoint \(StillpointCommand.version)",
        subcommands: [
            ReportCommand.self, ImportCommand.self, ImportsCommand.self, SessionsCommand.self, ExportCommand.self, StatisticsCommand.self,
            PractitionersCommand.self,
            ValidateCommand.self, DemoCommand.self, CheckCommand.self,
        ],
        defaultSubcommand: ReportCommand.self)

    /// Runs the command; a failure is one line on standard error and a `sysexits.h` status (``ExitStatus``).
    static func runTool() async {
        // A reader that goes away (`| head`) is a write error (74), not a signal that kills the tool mid-write.
        signal(SIGPIPE, SIG_IGN)
        do {
            // First of all: `--help`, a usage error or a mistyped command printed onto the store would destroy it.
            try StoreFiles.refuseStandardStreams(arguments: Array(CommandLine.arguments.dropFirst()))
            try ArgumentEncoding.refuseInvalidUTF8()
            try refuseUnknownCommand(Array(CommandLine.arguments.dropFirst()))
            var command = try await asyncParseAsRoot()
            // Before the command writes anything: standard output or error opened onto its store would destroy it.
            if let storeCommand = command as? any StoreCommand { try storeCommand.storeOption.refuseStandardStreams() }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            guard let failure = ToolFailure(error) else {
                // The parser's own usage errors quote the values given (`--format`, `--as-of`...): one escaped line,
                // as every other failure is, rather than the parser's text printed as it is.
                guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
                Output.printError("Error: \(message(for: error)) (\(helpCommand) --help)")
                exit(withError: ExitStatus.usage.exitCode)
            }
            Output.printError("Error: \(failure.description)")
            exit(withError: failure.status.exitCode)
        }
    }

    /// `stillpoint COMMAND`, for the command the arguments name (`report`, the default, when they name none).
    static var helpCommand: String {
        let names = configuration.subcommands.compactMap { $0.configuration.commandName }
        let named = CommandLine.arguments.dropFirst().first.flatMap { names.contains($0) ? $0 : nil }
        return "stillpoint \(named ?? "report")"
    }

    /// The tool's version, printed by `--version`.
    static let version = "0.1.0"

    /// `report` is the default command, so a mistyped command would otherwise be taken as an argument of
    /// `report` and answered with its usage: name the commands instead.
    static func refuseUnknownCommand(_ arguments: [String]) throws {
        guard let first = arguments.first, !first.hasPrefix("-") else { return }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        guard !names.contains(first) else { return }
        let suggestion = NameSuggestion.nearestName(to: first, in: names).map { "did you mean '\($0)'? " } ?? ""
        throw ToolFailure("'\(first)' is not a stillpoint command; \(suggestion)the commands are "
                          + names.joined(separator: ", ") + " (stillpoint --help)", status: .usage)
    }
}
