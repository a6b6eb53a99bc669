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
            Every problem is listed with its file, line and column, and the nearest valid name where there is one. \
            The exit status is 0 for a valid manifest, 65 for one with problems, and 66 for a file that cannot be read.

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
            // A manifest that cannot be read is a missing input; one that says something wrong is bad data.
            throw (errors.contains(where: \.isUnreadableFile) ? ExitStatus.noInput : .dataError).exitCode
        }
        Output.print("\(file) is a valid manifest")
    }
}
