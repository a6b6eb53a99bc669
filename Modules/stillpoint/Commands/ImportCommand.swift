import ArgumentParser
import Foundation
import PracticeLog
import StillpointCore
import StillpointReport

/// `stillpoint import`: reads an export into the store, skipping bad rows with their line and reason.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import sessions from an Insight Timer, Apple Health or spreadsheet export.",
        discussion: """
            The file is read as a stream, so exports of gigabytes keep memory flat. Rows that cannot be read are \
            skipped and listed with their line number and the reason; the good rows are still imported. A file \
            that is not in the format at all changes nothing. Importing the same file again adds nothing.

            Examples:
              stillpoint import "Insight Timer Sessions.csv" --format insight-timer
              stillpoint import export.zip --format apple-health --store my.sqlite
              stillpoint import log.csv --format csv --start-column date --duration-column minutes --duration-unit minutes
            """)

    @Argument(help: ArgumentHelp("The export file.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("The export's format: insight-timer, apple-health or csv.", valueName: "format"))
    var format: String

    @OptionGroup var storeOption: StoreOption

    @Option(name: .customLong("time-zone"), help: ArgumentHelp("The zone the file's times are in (Insight Timer and csv; default UTC).", valueName: "zone"))
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

    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard ["insight-timer", "apple-health", "csv"].contains(format) else {
            throw ValidationError("'\(format)' is not an import format; use insight-timer, apple-health or csv")
        }
        if let timeZone, TimeZone(identifier: timeZone) == nil {
            throw ValidationError("'\(timeZone)' is not a time zone; use an IANA name such as Europe/Berlin")
        }
        guard ["seconds", "minutes", "hms"].contains(durationUnit) else {
            throw ValidationError("'\(durationUnit)' is not a duration unit; use seconds, minutes or hms")
        }
    }

    func run() async throws {
        let logger = global.bootstrapLogging()
        let url = URL(fileURLWithPath: (file as NSString).expandingTildeInPath)
        let importer = try makeImporter()
        // Fail on a file that is not in the format before touching the store.
        _ = try importer.makeRecordReader(url: url)
        let container = try await storeOption.open(for: .writing, logger: logger)
        let queue = ContextOperationQueue(container: container, name: "import")
        let operation = ImportOperation(entity: Session.entity, key: ["key"], batchSize: 2_000) {
            SessionImportSource(reader: try importer.makeRecordReader(url: url))
        }
        let interrupt = InterruptHandler { operation.cancel() }
        defer { withExtendedLifetime(interrupt) {} }
        let progress = ImportProgressView()
        let events = queue.events
        queue.addOperation(operation)
        for await event in events where event.operation === operation {
            if case .progress(let update) = event.kind { progress.update(update) }
            if case .finished = event.kind { break }
            if case .failed = event.kind { break }
            if case .cancelled = event.kind { break }
        }
        progress.finish()
        let summary = operation.summary
        for issue in summary.issues {
            Output.printError("skipped \(issue.position.map { "line \($0)" } ?? "a row"): \(issue.reason)")
        }
        if summary.skipped > summary.issues.count {
            Output.printError("... and \(summary.skipped - summary.issues.count) more rows skipped")
        }
        Output.print("imported \(url.lastPathComponent): \(summary.inserted) new, \(summary.updated) updated, "
                     + "\(summary.unchanged) already there, \(summary.skipped) skipped")
        switch operation.outcome {
        case .failed(let error)?:
            Output.printError("the import stopped: \(error); the \(summary.recordsSaved) sessions saved before it are kept, and importing again resumes")
            // A full disk is an I/O error (74); other failures keep status 1.
            if case StoreError.diskFull? = ((error as? ImportOperationError)?.underlying ?? error) as? StoreError {
                throw ExitStatus.ioError.exitCode
            }
            throw ExitCode(1)
        case .cancelled?:
            Output.printError("the import was cancelled; the \(summary.recordsSaved) sessions saved before it are kept, and importing again resumes")
            throw ExitCode(130)
        default:
            break
        }
    }

    private func makeImporter() throws -> any SessionImporter {
        let zone = timeZone.flatMap(TimeZone.init(identifier:))
        switch format {
        case "insight-timer":
            return InsightTimerImporter(timeZone: zone)
        case "apple-health":
            return AppleHealthImporter()
        default:
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
                                      noteColumn: noteColumn, dateFormat: dateFormat, timeZone: zone, defaultKind: defaultKind)
        }
    }
}
