import ArgumentParser
import Foundation
import Logging
import PracticeLog
import StillpointCore
import StillpointReport
import StillpointDefaultStore

/// `stillpoint import`: reads an export into the store, skipping bad rows with their line and reason.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import sessions from an Insight Timer, Apple Health, Meditation Helper, Garmin, Strava or spreadsheet export.",
        discussion: """
            The file is read as a stream, so exports of gigabytes keep memory flat; `-` reads standard input \
            (every format; apple-health's export.zip needs a file, or pipe the export.xml inside it). Rows that cannot be read \
            are skipped and listed with their line number and the reason; the good rows are still imported. A \
            file that is not in the format at all changes nothing. Importing the same file again adds nothing.

            Times: a time written without a zone (Insight Timer, Meditation Helper, Garmin, csv) is the \
            wall-clock time you saw, and counts on that day and hour whatever zone the report runs in; \
            --time-zone gives the zone it was in, to store true instants; without it, the home time zone of the \
            practitioner (practitioners add --time-zone) does, for each row's practitioner with \
            --practitioner-column. Apple Health sessions keep their \
            zone or offset; Strava's times are UTC. The import says which rule it applied; docs/import-formats.md \
            has the rule of each format. Garmin and Strava lists import yoga and meditation activities and count \
            the others.

            Limits: a session lasts more than 0 seconds and at most 7 days, and starts between 1970-01-01 and \
            one day from now; a session outside them is skipped with its line. One record (a CSV row, an XML \
            tag or the text between two tags) holds at most 1 MiB.

            The import stops, with the line and exit status 65, where the rest of the file cannot be trusted: a \
            quoted CSV field that is never closed (the line where the quote opened is named), a record over \
            1 MiB, broken XML, or an export that ends early. The sessions saved before that are kept; fix or \
            export the file again and import it again, which adds only what is missing.

            Many practitioners at once (an app moving its users in): --practitioner-column names a csv column \
            holding each row's practitioner id. The practitioners the file names are made when the store does not \
            hold them, and each gets an import run of their own; a row whose cell is empty or not a valid id is \
            skipped with its line and the column. It does not go with --practitioner (64). See \
            docs/practitioners.md.

            An import in which every row was skipped fails (65): the format or the column options are likely \
            wrong. With --strict, the whole file is checked first, and nothing is imported if any row would be \
            skipped.

            Exit status: 0 imported (bad rows skipped), 65 bad data, 66 no such file, 74 reading failed \
            part-way, 130 interrupted.

            Examples:
              stillpoint import "Insight Timer Sessions.csv" --format insight-timer
              stillpoint import Activities.csv --format garmin
              stillpoint import export.zip --format apple-health --store my.sqlite
              stillpoint import log.csv --format csv --start-column date --duration-column minutes --duration-unit minutes
              unzip -p export.zip apple_health_export/export.xml | stillpoint import - --format apple-health
              stillpoint import users.csv --format csv --practitioner-column user --store app.sqlite
            """)

    @Argument(help: ArgumentHelp("The export file, or - for standard input.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("The export's format: insight-timer, apple-health, meditation-helper, garmin, strava or csv.", valueName: "format"))
    var format: String

    @OptionGroup var storeOption: StoreOption
    @OptionGroup var practitionerOption: PractitionerOption

    @Option(name: .customLong("time-zone"),
            help: ArgumentHelp("The zone the file's times are in (default: the wall-clock times you saw; "
                               + "Strava: the zone to count its UTC times in).", valueName: "zone"))
    var timeZone: String?

    @Option(name: .customLong("start-column"), help: "csv: the column of the start date-time.")
    var startColumn = "start"

    @Option(name: .customLong("duration-column"), help: "csv: the column of the duration.")
    var durationColumn = "duration"

    @Option(name: .customLong("duration-unit"), help: "csv: seconds, minutes or hms (H:M:S).")
    var durationUnit = "seconds"

    @Option(name: .customLong("end-column"), help: "csv: a column of end date-times, instead of a duration.")
    var endColumn: String?

    @Option(name: .customLong("kind-column"), help: "csv: the column of the kind of practice.")
    var kindColumn: String?

    @Option(name: .customLong("note-column"), help: "csv: a column of notes.")
    var noteColumn: String?

    @Option(name: .customLong("date-format"), help: "csv: the date format, e.g. yyyy-MM-dd HH:mm (default ISO 8601).")
    var dateFormat: String?

    @Option(name: .customLong("default-kind"), help: "csv: the kind of rows without one.")
    var defaultKind = "meditation"

    @Option(name: .customLong("practitioner-column"),
            help: ArgumentHelp("csv: a column naming each row's practitioner by id (a bulk load of many people).", valueName: "column"))
    var practitionerColumn: String?

    @Flag(help: "Import nothing if any row would be skipped: the whole file is checked first.")
    var strict = false

    @Flag(name: .customLong("add-to-foreign-database"),
          help: ArgumentHelp("Add Stillpoint's tables to a SQLite database another program made, beside its own tables.",
                             discussion: "Without it, such a database is refused (65) and left untouched. Its own tables are not changed, but the database is switched to WAL journal mode (a -wal and a -shm file beside it while it is open), and Stillpoint keeps its store version in the database's user_version, so a database whose program sets user_version is refused even so."))
    var addToForeignDatabase = false

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard SessionImporters.type(withID: format) != nil else {
            throw ValidationError("'\(format)' is not an import format; use \(Self.formatList)")
        }
        if let timeZone, TimeZone(identifier: timeZone) == nil {
            throw ValidationError("'\(timeZone)' is not a time zone; use an IANA name such as Europe/Berlin")
        }
        guard ["seconds", "minutes", "hms"].contains(durationUnit) else {
            throw ValidationError("'\(durationUnit)' is not a duration unit; use seconds, minutes or hms")
        }
        if practitionerColumn != nil {
            guard format == GenericCSVImporter.id else {
                throw ValidationError("--practitioner-column reads a csv file; use it with --format csv")
            }
            guard practitionerOption.practitioner == nil else {
                throw ValidationError("--practitioner and --practitioner-column do not go together: the column names each row's "
                                      + "practitioner; give one of them")
            }
        }
    }

    func run() async throws {
        let logger = global.bootstrapLogging()
        let sessionImport = SessionImport(file: file, importer: makeImporter(), options: recordedOptions, strict: strict)
        // Standard input is kept in a file first: the run is known by its content's hash, and --strict reads
        // the input twice (a check, then the import).
        let input: SessionImportInput
        do {
            input = try sessionImport.keepInput()
        } catch let error as SessionImportError {
            throw Self.failure(error)
        }
        do {
            // Opened once, before touching the store: a file not in the format fails here and changes nothing,
            // and standard input can be read only once.
            let opened: OpenedSessionImport
            do {
                opened = try sessionImport.open(input)
            } catch {
                throw Self.failure(error)
            }
            try await importing(opened, logger: logger)
        } catch let failure as ToolFailure where input.isCopy {
            // The copy of standard input is an implementation detail: name what the person gave.
            throw ToolFailure(failure.description.replacingOccurrences(of: input.url.path, with: "standard input"), status: failure.status)
        }
    }

    /// Imports the opened file (or the copy of standard input) into the store, and says how it went.
    private func importing(_ opened: OpenedSessionImport, logger: Logger) async throws {
        let container = try await storeOption.open(for: .writing, addingToForeignDatabase: addToForeignDatabase, logger: logger)
        if let rule = opened.timeRule { Output.printError(rule) }
        // The default store begins as a demo: a person's own sessions replace it, never join it.
        if storeOption.store == nil {
            let removed = try await DemoHistory.removeSessions(from: container)
            if removed > 0 {
                Output.printError("removed the \(removed.formatted()) demo sessions from the default store (\(DefaultStore.url().path)), "
                                  + "so that your own sessions are not counted with generated ones")
            }
        }
        // A practitioner column names whose each session is: the container stays unscoped, to write them all.
        let practitioner = practitionerColumn == nil ? try await practitionerOption.scopeForWriting(container).id : Practitioner.defaultID
        let interrupt = InterruptHandler { opened.cancel() }
        defer { withExtendedLifetime(interrupt) {} }
        let progress = ImportProgressView()
        let result = try await opened.run(into: container, practitioner: practitioner) { update in progress.update(update) }
        progress.finish()
        if let line = Self.homeTimeZoneLine(result.homeTimeZones) { Output.printError(line) }
        let summary = result.summary
        for issue in summary.issues {
            Output.printError("skipped \(issue.position.map { "line \($0)" } ?? "a row"): \(issue.reason)")
        }
        if summary.skipped > summary.issues.count {
            let more = summary.skipped - summary.issues.count
            Output.printError("... and \(more) more \(more == 1 ? "row" : "rows") skipped")
        }
        if let line = Self.notPracticeLine(result.notPractice) { Output.printError(line) }
        Self.sayReplaced(result)
        let name = file == "-" ? "standard input" : opened.input.url.lastPathComponent
        let counts = "\(summary.inserted) new, \(summary.updated) updated, \(summary.unchanged) already there, \(summary.skipped) skipped"
        if practitionerColumn != nil {
            let runs = result.runs.map(\.run)
            let (first, last) = (runs.min() ?? 0, runs.max() ?? 0)
            let span = runs.count == 1 ? "run \(first)" : last - first + 1 == Int64(runs.count) ? "runs \(first)-\(last)"
                : "\(runs.count) runs between \(first) and \(last)"
            Output.print("imported \(name) for \(runs.count) \(runs.count == 1 ? "practitioner" : "practitioners")"
                         + "\(runs.isEmpty ? "" : " as \(span)"): \(counts)")
        } else {
            Output.print("imported \(name) as run \(result.run): \(counts)")
        }
        switch result.outcome {
        case .failed(let error)?:
            let cause = Self.failure((error as? ImportOperationError)?.underlying ?? error)
            throw ToolFailure("\(cause.description) The import stopped: the \(summary.recordsSaved) sessions saved "
                              + "before it are kept, and importing again adds only what is missing", status: cause.status)
        case .cancelled?:
            Output.printError("the import was cancelled; the \(summary.recordsSaved) sessions saved before it are kept, and importing again resumes")
            throw ExitCode(130)
        default:
            break
        }
        if let stop = result.stop {
            throw ToolFailure("\(stop.localizedDescription) The import stopped there: the \(summary.recordsSaved) sessions "
                              + "before line \(stop.line) are saved, and importing again adds only what is missing",
                              status: .dataError)
        }
        if summary.skipped > 0, !result.keptSessions {
            let rows = summary.skipped == 1 ? "the one row was" : "all \(summary.skipped) rows were"
            throw ToolFailure("no session was imported: \(rows) skipped (see above); check --format and the column options",
                              status: .dataError)
        }
    }

    /// The options that change what an import stores, as given, for the run's record.
    private var recordedOptions: String {
        var options: [String] = []
        if let timeZone { options.append("--time-zone \(timeZone)") }
        if format == "csv" {
            options += ["--start-column \(startColumn)", endColumn.map { "--end-column \($0)" }
                        ?? "--duration-column \(durationColumn) --duration-unit \(durationUnit)"]
            options += [kindColumn.map { "--kind-column \($0)" }, noteColumn.map { "--note-column \($0)" },
                        dateFormat.map { "--date-format \($0)" }].compactMap { $0 }
            options.append("--default-kind \(defaultKind)")
            if let practitionerColumn { options.append("--practitioner-column \(practitionerColumn)") }
        }
        return options.joined(separator: " ")
    }

    /// Importing a file again replaces what its earlier runs wrote: says so, and what was taken out.
    private static func sayReplaced(_ result: SessionImportResult) {
        for earlier in result.replacedRuns {
            let state = earlier.state == .killed ? ", killed part-way" : earlier.state == .stoppedPartWay ? ", stopped part-way" : ""
            Output.printError("this file was imported before (run \(earlier.id), \(earlier.startedAt.formatted(date: .abbreviated, time: .shortened))"
                              + "\(earlier.options.isEmpty ? "" : ", \(earlier.options)")\(state)): run \(result.run) replaces it")
        }
        let removed = result.removedByReplacing
        if removed > 0 {
            Output.printError("removed the \(removed) \(removed == 1 ? "session" : "sessions") the earlier import read that no other run read")
        }
    }

    /// The failure's one line and status, as `Stillpoint.main` would give it: bad data 65, a file that cannot
    /// be opened 66, reading that failed part-way 74.
    private static func failure(_ error: any Error) -> ToolFailure {
        switch error {
        case SessionImportError.wouldSkipRows(let count, let first):
            for issue in first {
                Output.printError("would skip line \(issue.line): \(issue.reason)")
            }
            if count > first.count { Output.printError("... and \(count - first.count) more") }
            return ToolFailure("--strict: \(count) \(count == 1 ? "row" : "rows") would be skipped, so nothing was imported; "
                               + "fix \(count == 1 ? "it" : "them"), or import without --strict to skip \(count == 1 ? "it" : "them")",
                               status: .dataError)
        case SessionImportError.cannotKeepStandardInput(let path, let reason):
            return ToolFailure("cannot keep standard input in \(path): \(reason)", status: .cannotCreate)
        case SessionImportError.standardInputTooLarge:
            return ToolFailure("standard input goes on past 8 GiB, more than any export; import the file by its name", status: .dataError)
        default:
            return ToolFailure(error) ?? ToolFailure("the import failed: \(error.localizedDescription)", status: .failure)
        }
    }

    /// `times without a zone were read in their practitioner's home time zone (alice: Europe/Berlin)`, or `nil`
    /// when no home time zone applied.
    static func homeTimeZoneLine(_ zones: [String: TimeZone]) -> String? {
        guard !zones.isEmpty else { return nil }
        let shown = zones.sorted { $0.key < $1.key }.prefix(3).map { "\($0.key): \($0.value.identifier)" }
        return "times without a zone were read in their practitioner's home time zone (\(shown.joined(separator: ", "))"
            + "\(zones.count > 3 ? ", and \(zones.count - 3) more" : "")) instead; --time-zone gives the zone of the whole file"
    }

    /// `insight-timer, apple-health, ... or csv`, from the built-in importers.
    static var formatList: String {
        let ids = SessionImporters.builtIn.map { $0.id }
        return ids.dropLast().joined(separator: ", ") + " or " + (ids.last ?? "")
    }

    /// `left out 7 activities that are not yoga or meditation: 5 Running, 2 Cycling`, or `nil` for none.
    static func notPracticeLine(_ counts: [String: Int]) -> String? {
        let total = counts.values.reduce(0, +)
        guard total > 0 else { return nil }
        let types = counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        let shown = types.prefix(5).map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        let rest = types.count > 5 ? ", …" : ""
        return "left out \(total) \(total == 1 ? "activity that is" : "activities that are") not yoga or meditation: \(shown)\(rest)"
    }

    private func makeImporter() -> any SessionImporter {
        let zone = timeZone.flatMap(TimeZone.init(identifier:))
        if format != GenericCSVImporter.id, let importer = SessionImporters.importer(withID: format, timeZone: zone) {
            return importer
        }
        // The generic CSV reader, with the columns and units the options name.
        let duration: GenericCSVImporter.DurationColumn
        if let endColumn {
            duration = .end(endColumn)
        } else {
            switch durationUnit {
            case "minutes": duration = .minutes(durationColumn)
            case "hms": duration = .hoursMinutesSeconds(durationColumn)
            default: duration = .seconds(durationColumn)
            }
        }
        return GenericCSVImporter(startColumn: startColumn, duration: duration, kindColumn: kindColumn,
                                  noteColumn: noteColumn, dateFormat: dateFormat, timeZone: zone, defaultKind: defaultKind,
                                  practitionerColumn: practitionerColumn)
    }
}
