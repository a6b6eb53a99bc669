import ArgumentParser
import Foundation
import PracticeLog
import StillpointCore

/// `stillpoint practitioners`: the people whose practice a store holds; adding, renaming and removing one.
struct PractitionersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "practitioners",
        abstract: "List the practitioners of a store, or add, rename or remove one.",
        discussion: """
            A store may hold the practice of many people, each a practitioner with an id the app chooses, a \
            display name and a home time zone. A store with one person's practice has the practitioner `me`, \
            made by the first import or demo. Removing a practitioner removes their sessions and import runs in \
            one batch delete. docs/practitioners.md says more.

            Examples:
              stillpoint practitioners --store my.sqlite
              stillpoint practitioners add alice --name Alice --time-zone Europe/Berlin --store my.sqlite
              stillpoint practitioners rename me alice --store my.sqlite
              stillpoint practitioners remove bob --yes --store my.sqlite
            """,
        subcommands: [List.self, Add.self, Rename.self, Remove.self],
        defaultSubcommand: List.self)

    /// Refuses an id that cannot be a practitioner's, naming the argument it came in.
    static func check(id: String, as argument: String) throws {
        if let problem = Practitioners.problem(withID: id) {
            throw ValidationError("the practitioner id \(argument) '\(id)' \(problem); use 1 to \(Practitioners.maximumIDLength) "
                                  + "characters on one line")
        }
    }

    /// `stillpoint practitioners list`: one line per practitioner, in id order.
    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the practitioners of a store with their session counts.")

        @OptionGroup var storeOption: StoreOption
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let logger = global.bootstrapLogging()
            let container = try await storeOption.open(logger: logger)
            let practitioners = try await Practitioners.list(in: container)
            guard !practitioners.isEmpty else {
                Output.print("no practitioners in this store; `stillpoint practitioners add ID` or an import adds one")
                return
            }
            for practitioner in practitioners {
                var line = "\(practitioner.id)  \(practitioner.sessions) \(practitioner.sessions == 1 ? "session" : "sessions")"
                if !practitioner.name.isEmpty { line += "  name: \(practitioner.name)" }
                if let zone = practitioner.timeZone { line += "  home time zone: \(zone)" }
                Output.print(line)
            }
        }
    }

    /// `stillpoint practitioners add ID [--name N] [--time-zone Z]`.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a practitioner to a store.")

        @Argument(help: ArgumentHelp("The practitioner's id, chosen by you or your app: unique in the store.", valueName: "id"))
        var id: String

        @Option(help: ArgumentHelp("The name to show (default: none; the id is shown).", valueName: "name"))
        var name = ""

        @Option(name: .customLong("time-zone"),
                help: ArgumentHelp("The zone an import of wall-clock times uses when it names none (default: this machine's).", valueName: "zone"))
        var timeZone: String?

        @OptionGroup var storeOption: StoreOption
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            try PractitionersCommand.check(id: id, as: "ID")
            if let problem = Practitioners.problem(withName: name) {
                throw ValidationError("--name '\(name)' \(problem); give a name of one line")
            }
            if let timeZone, TimeZone(identifier: timeZone) == nil {
                throw ValidationError("'\(timeZone)' is not a time zone; use an IANA name such as Europe/Berlin")
            }
        }

        func run() async throws {
            let logger = global.bootstrapLogging()
            let container = try await storeOption.open(for: .writing, logger: logger)
            guard try await Practitioners.add(id, name: name, timeZone: timeZone, in: container) else {
                throw ToolFailure("the store already has a practitioner '\(id)'; choose another id, or `stillpoint practitioners` "
                                  + "lists those there are", status: .usage)
            }
            Output.print("added practitioner \(id)")
        }
    }

    /// `stillpoint practitioners rename ID NEW`: a new id for the same person.
    struct Rename: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rename", abstract: "Give a practitioner another id, keeping their sessions, import runs, name and zone.")

        @Argument(help: ArgumentHelp("The practitioner's id now.", valueName: "id"))
        var id: String

        @Argument(help: ArgumentHelp("The id to give them.", valueName: "new"))
        var newID: String

        @OptionGroup var storeOption: StoreOption
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            try PractitionersCommand.check(id: newID, as: "NEW")
        }

        func run() async throws {
            let logger = global.bootstrapLogging()
            let container = try await storeOption.open(for: .changing, logger: logger)
            switch try await Practitioners.rename(id, to: newID, in: container) {
            case .renamed:
                Output.print("renamed practitioner \(id) to \(newID)")
            case .notFound:
                throw ToolFailure("there is no practitioner '\(id)' in this store; `stillpoint practitioners` lists them", status: .usage)
            case .newIDTaken:
                throw ToolFailure("the store already has a practitioner '\(newID)'; choose another id, or remove that one first",
                                  status: .usage)
            }
        }
    }

    /// `stillpoint practitioners remove ID --yes`: the practitioner with their sessions and import runs.
    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "remove", abstract: "Remove a practitioner with all their sessions and import runs.")

        @Argument(help: ArgumentHelp("The practitioner's id, as `stillpoint practitioners` lists it.", valueName: "id"))
        var id: String

        @Flag(help: "Remove them: without it nothing is removed.")
        var yes = false

        @OptionGroup var storeOption: StoreOption
        @OptionGroup var global: GlobalOptions

        func validate() throws {
            guard yes else {
                throw ValidationError("removing practitioner '\(id)' deletes all their sessions and import runs; add --yes to remove them")
            }
        }

        func run() async throws {
            let logger = global.bootstrapLogging()
            let container = try await storeOption.open(for: .changing, logger: logger)
            guard let removed = try await Practitioners.remove(id, from: container) else {
                throw ToolFailure("there is no practitioner '\(id)' in this store; `stillpoint practitioners` lists them", status: .usage)
            }
            Output.print("removed practitioner \(id), their \(removed.sessions) \(removed.sessions == 1 ? "session" : "sessions") "
                         + "and \(removed.importRuns) import \(removed.importRuns == 1 ? "run" : "runs")")
        }
    }
}
