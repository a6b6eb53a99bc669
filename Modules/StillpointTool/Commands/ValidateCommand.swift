import ArgumentParser
import Foundation
import StillpointReport
import StillpointStatistics

/// `stillpoint validate`: checks a manifest and lists every mistake at once.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a manifest: YAML, keys, modules, statistic ids, parameters and custom statistics.",
        discussion: """
            Every problem is listed with its file, line and column, and the nearest valid name where there is one. \
            A valid manifest's statistics are listed by the module they come from, with where each module comes \
            from. The exit status is 0 for a valid manifest, 65 for one with problems, and 66 for a file that \
            cannot be read.

            Examples:
              stillpoint validate Config/default.yaml
              stillpoint validate my-report.yaml
            """)

    @Argument(help: ArgumentHelp("The manifest to check.", valueName: "file"))
    var file: String

    func run() throws {
        let url = URL(fileURLWithPath: (file as NSString).expandingTildeInPath)
        let modules = ToolModules.current
        let errors = Manifest.validate(contentsOf: url, modules: modules)
        guard errors.isEmpty else {
            for error in errors { Output.printError(error.description, keepingLineBreaks: true) }
            Output.printError("\(errors.count) problem\(errors.count == 1 ? "" : "s") in \(file)")
            // A manifest that cannot be read is a missing input; one that says something wrong is bad data.
            throw (errors.contains(where: \.isUnreadableFile) ? ExitStatus.noInput : .dataError).exitCode
        }
        let manifest = try Manifest.load(contentsOf: url)
        Output.print("\(ValueText.visible(file)) is a valid manifest\n" + Self.registration(of: manifest, from: modules),
                     keepingLineBreaks: true)
    }

    /// The modules the manifest registers, each with where it comes from and the entries that use it.
    ///
    /// ```text
    /// registered modules (2 of 7):
    ///   TotalStatistics (built in): session_count, total_time
    ///   CareStatistics (from care-stillpoint): longest_gap
    /// ```
    static func registration(of manifest: Manifest, from modules: ModuleCatalog) -> String {
        let registered = manifest.registeredModules(from: modules)
        var lines = ["registered modules (\(registered.count) of \(modules.modules.count)):"]
        for module in registered {
            let ids = Set(module.statistics.map(\.id))
            let names = manifest.entries.filter { ids.contains($0.id) }.map(\.name)
            lines.append("  \(module.name) (\(module.origin)): " + (names.isEmpty ? "no entry uses it" : names.joined(separator: ", ")))
        }
        let custom = Set(manifest.customStatistics.map(\.id))
        let customNames = manifest.entries.filter { custom.contains($0.id) }.map(\.name)
        if !customNames.isEmpty {
            lines.append("  custom_statistics (from the manifest): " + customNames.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }
}
