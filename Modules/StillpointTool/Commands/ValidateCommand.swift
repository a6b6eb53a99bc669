import ArgumentParser
import Foundation
import StillpointManifest
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
        let errors = Manifest.validate(contentsOf: url, modules: modules, formats: ToolModules.renderers.formats)
        guard errors.isEmpty else {
            for error in errors { Output.printError(Self.text(of: error), keepingLineBreaks: true) }
            Output.printError("\(errors.count) problem\(errors.count == 1 ? "" : "s") in \(file)")
            // A manifest that cannot be read is a missing input; one that says something wrong is bad data.
            throw (errors.contains(where: \.isUnreadableFile) ? ExitStatus.noInput : .dataError).exitCode
        }
        let manifest = try Manifest.load(contentsOf: url, formats: ToolModules.renderers.formats)
        Output.print("\(ValueText.visible(file)) is a valid manifest\n" + Self.registration(of: manifest, from: modules),
                     keepingLineBreaks: true)
    }

    /// A problem as `validate` shows it, like ``ManifestError/description``, with what comes from outside (the
    /// manifest's path, the message with the names and values it quotes, the manifest's line) escaped where it is
    /// inserted, so that a line break in any of them cannot forge a line; only the tool's own lines stay lines:
    /// the manifest's line and its caret, and a predicate's line and its caret.
    ///
    /// ```text
    /// my\nreport.yaml:3:5: error: unknown key 'statistcs\nok'; did you mean 'statistics'?
    ///     statistcs:
    ///     ^
    /// ```
    static func text(of error: ManifestError) -> String {
        var message = error.message
        var caret = ""
        // A predicate's error ends with the predicate's line (a single line of it) and a caret of the tool's own.
        let lines = message.components(separatedBy: "\n")
        if message.hasPrefix("invalid where predicate: "), lines.count >= 3, let last = lines.last,
           last.hasSuffix("^"), last.dropLast().allSatisfy({ $0 == " " }) {
            message = lines.dropLast(2).joined(separator: "\n")
            caret = "\n" + ValueText.visible(lines[lines.count - 2]) + "\n" + last
        }
        var text = (error.location.map { ValueText.visible("\($0)") + ": " } ?? "") + "error: " + ValueText.visible(message) + caret
        if let sourceLine = error.sourceLine, let location = error.location, location.column >= 1 {
            // Columns count Unicode scalars, as Yams does; tabs become spaces so the caret lines up.
            let shown = String(String.UnicodeScalarView(sourceLine.unicodeScalars.map { $0 == "\t" ? " " : $0 }))
            let pad = min(location.column - 1, shown.unicodeScalars.count)
            text += "\n    \(ValueText.visible(shown))\n    \(String(repeating: " ", count: pad))^"
        }
        return text
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
            // Entry names come from the manifest, module names and origins from plugins: each shown escaped.
            let names = manifest.entries.filter { ids.contains($0.id) }.map { ValueText.visible($0.name) }
            lines.append("  \(ValueText.visible(module.name)) (\(ValueText.visible("\(module.origin)"))): "
                         + (names.isEmpty ? "no entry uses it" : names.joined(separator: ", ")))
        }
        let custom = Set(manifest.customStatistics.map(\.id))
        let customNames = manifest.entries.filter { custom.contains($0.id) }.map { ValueText.visible($0.name) }
        if !customNames.isEmpty {
            lines.append("  custom_statistics (from the manifest): " + customNames.joined(separator: ", "))
        }
        return lines.joined(separator: "\n")
    }
}
