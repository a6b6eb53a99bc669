import ArgumentParser
import Foundation
import PracticeLog
import StillpointCore

/// `stillpoint imports`: the import runs of a store, and removing one with its sessions.
struct ImportsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imports",
        abstract: "List the imports of a store, or remove one with its sessions.",
        discussion: """
            Every import is recorded as a run: the file, a hash of its content, the format and options, and what \
            it did. A session belongs to every run that read it, and stays while any of them does: removing a run \
            removes only the sessions no other run read (one batch delete, which a report --watch shows at once). \
            Importing the same file again replaces its earlier runs, complete or not. A run that did not read its \
            whole file is listed as unfinished: stopped part-way, killed, or still running. docs/import-runs.md \
            says more.

            Examples:
              stillpoint imports --store my.sqlite
              stillpoint imports remove 3 --store my.sqlite
            """,
        subcommands: [List.self, Remove.self],
        defaultSubcommand: List.self)

    /// `stillpoint imports list`: one line per run, oldest first.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the import runs of a store.")

        @OptionGroup var storeOption: StoreOption
        @OptionGroup var practitionerOption: PractitionerOption
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let logger = global.bootstrapLogging()
            let container = try await storeOption.open(logger: logger)
            try await practitionerOption.scope(container)
            let runs = try await ImportRuns.list(in: container)
            guard !runs.isEmpty else {
                Output.print("no imports recorded in this store; `stillpoint import FILE --format ...` adds one")
                return
            }
            for run in runs {
                let state = switch run.state {
                case .complete: ""
                case .stoppedPartWay: " (unfinished: stopped part-way)"
                case .killed: " (unfinished: killed; a complete import of the file replaces it)"
                case .running: " (unfinished: still running)"
                }
                Output.print("run \(run.id)  \(run.startedAt.formatted(date: .abbreviated, time: .shortened))  \(run.file)  "
                             + "\(run.format)\(run.options.isEmpty ? "" : " \(run.options)")  \(run.sessions) "
                             + "\(run.sessions == 1 ? "session" : "sessions") now; it read \(run.inserted) new, \(run.updated) updated, "
                             + "\(run.unchanged) already there, \(run.skipped) skipped\(state)")
            }
        }
    }

    /// `stillpoint imports remove RUN`: the run and the sessions it wrote.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove an import run and the sessions no other run read.")

        @Argument(help: ArgumentHelp("The run's number, as `stillpoint imports` lists it.", valueName: "run"))
        var run: Int64

        @OptionGroup var storeOption: StoreOption
        @OptionGroup var practitionerOption: PractitionerOption
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let logger = global.bootstrapLogging()
            let container = try await storeOption.open(for: .changing, logger: logger)
            try await practitionerOption.scope(container)
            guard let removed = try await ImportRuns.remove(run, from: container) else {
                throw ToolFailure("there is no import run \(run) in this store; `stillpoint imports` lists them", status: .usage)
            }
            Output.print("removed run \(run) and the \(removed) \(removed == 1 ? "session" : "sessions") no other run read")
        }
    }
}
