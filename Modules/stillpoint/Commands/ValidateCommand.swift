import ArgumentParser
import Foundation
import StillpointCatalog
import StillpointStatistics

/// `stillpoint validate`: checks a manifest and lists every mistake at once.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a manifest: YAML, keys, statistic ids, parameters and custom statistics.",
        discussion: """
            Every problem is listed with its file, line and column, and the nearest valid name where there is one.

            Examples:
              stillpoint validate Config/default.yaml
              stillpoint validate my-report.yaml
            """)

    @Argument(help: ArgumentHelp("The manifest to check.", valueName: "file"))
    var file: String

    func run() throws {
        let url = URL(fileURLWithPath: (file as NSString).expandingTildeInPath)
        let errors = Manifest.validate(contentsOf: url, catalog: try BuiltInStatistics.catalog())
        guard errors.isEmpty else {
            for error in errors { Output.printError(error.description) }
            Output.printError("\(errors.count) problem\(errors.count == 1 ? "" : "s") in \(file)")
            throw ExitCode(1)
        }
        Output.print("\(file) is a valid manifest")
    }
}
