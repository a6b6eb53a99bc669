import ArgumentParser
import Foundation
import PracticeLog
import StillpointCore
import StillpointReport

/// `stillpoint export`: writes the sessions (or any entity) to CSV or JSON Lines.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export sessions to CSV or JSON Lines.",
        discussion: """
            Rows stream through a cursor, so memory stays flat. The file appears only when the export is complete: \
            a cancelled or failed export leaves nothing behind.

            Examples:
              stillpoint export --output sessions.csv
              stillpoint export --where "kind == 'yoga' AND duration >= 1200" --columns start,duration,kind --output yoga.csv
              stillpoint export --format jsonl --output sessions.jsonl
            """)

    @Option(help: "The entity to export.")
    var entity = "Session"

    @Option(name: .customLong("where"), help: ArgumentHelp("A predicate in Core Data's format, e.g. \"kind == 'yoga'\".", valueName: "predicate"))
    var predicate: String?

    @Option(help: ArgumentHelp("The attributes to write, in order, separated by commas (default: all).", valueName: "names"))
    var columns: String?

    @Option(help: ArgumentHelp("Sort by these attributes, separated by commas; prefix one with - for descending.", valueName: "names"))
    var sort = "start"

    @Option(help: "csv or jsonl.")
    var format = "csv"

    @Option(help: ArgumentHelp("The file to write, or - for standard output.", valueName: "file"))
    var output: String

    @OptionGroup var storeOption: StoreOption
    @OptionGroup var practitionerOption: PractitionerOption
    @OptionGroup var global: GlobalOptions

    func validate() throws {
        guard ["csv", "jsonl"].contains(format) else {
            throw ValidationError("'\(format)' is not an export format; use csv or jsonl")
        }
    }

    func run() async throws {
        let logger = global.bootstrapLogging()
        // Everything the user wrote is checked before the store is opened, so a mistake touches no file.
        let entity = try Session.schema.entity(named: self.entity)
        var request = FetchRequest(entity)
        request.predicate = try predicate.map { try SessionsCommand.parse($0, for: entity, in: storeOption.sqlDialect) }
        request.sortKeys = sort.split(separator: ",").map { key in
            key.hasPrefix("-") ? .descending(String(key.dropFirst())) : .ascending(String(key))
        }
        let names = columns?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        for name in (names ?? []) + request.sortKeys.map(\.attribute) {
            _ = try entity.checkedAttribute(named: name)
        }
        try storeOption.refuse(output: output)
        let container = try await storeOption.open(logger: logger)
        try await practitionerOption.scope(container)
        // `-` is standard output; the export writes through links and into devices (see OutputDestination).
        let url = URL(fileURLWithPath: output == "-" ? "/dev/stdout" : (output as NSString).expandingTildeInPath)
        let operation: ExportOperation = format == "csv"
            ? ExportOperation(request, columns: names, format: .csv, to: url)
            : ExportOperation(request, columns: names, format: .jsonLines, to: url)
        let queue = ContextOperationQueue(container: container, name: "export")
        let interrupt = InterruptHandler { operation.cancel() }
        defer { withExtendedLifetime(interrupt) {} }
        queue.addOperation(operation)
        await operation.waitUntilFinished()
        switch operation.outcome {
        case .finished(let rows)?:
            Output.printError("exported \(rows) row\(rows == 1 ? "" : "s") to \(OutputDestination(path: url.path).displayPath)")
        case .failed(let error)?:
            let failure = ToolFailure(error) ?? ToolFailure("\(error)", status: .failure)
            throw ToolFailure("the export failed and wrote nothing: \(failure.description)", status: failure.status)
        default:
            Output.printError("the export was cancelled and wrote nothing")
            throw ExitCode(130)
        }
    }
}
