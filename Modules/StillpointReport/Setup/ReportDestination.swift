import StillpointManifest
import StillpointStatistics

/// One report to write: its format and where it goes (`-` for standard output).
///
/// ``plan(formats:output:manifestFormats:manifestPath:)`` decides them from the command line and the manifest:
///
/// ```swift
/// // output: {formats: [html, json], path: reports/practice}
/// ReportDestination.plan(formats: nil, output: nil, manifestFormats: [.html, .json], manifestPath: "reports/practice")
/// // [html → reports/practice.html, json → reports/practice.json]
/// ```
public struct ReportDestination: Sendable, Hashable {
    public var format: ReportFormat
    /// A file path, or `-` for standard output.
    public var path: String

    public init(format: ReportFormat, path: String) {
        self.format = format
        self.path = path
    }

    /// Whether the report goes to standard output.
    public var isStandardOutput: Bool { path == "-" }

    /// The reports a run writes, in order.
    ///
    /// - `formats` (`--format`) replaces the manifest's formats; neither means text.
    /// - `output` (`--output`) replaces the manifest's path. With one format it is used as written; with
    ///   several it is a base name, and each format's file is it plus the format's extension.
    /// - The manifest's path always gets the format's extension (`reports/practice` → `reports/practice.json`),
    ///   unless it already ends with it (`report.html` stays `report.html` for html).
    /// - Neither, or `-`: standard output, each format in turn.
    public static func plan(formats: [ReportFormat]?, output: String?, manifestFormats: [ReportFormat],
                            manifestPath: String?) -> [ReportDestination] {
        var chosen = formats ?? manifestFormats
        if chosen.isEmpty { chosen = [.text] }
        // The same format twice would write the same file twice.
        var seen = Set<ReportFormat>()
        chosen = chosen.filter { seen.insert($0).inserted }
        return chosen.map { format in
            if let output {
                if output == "-" || chosen.count == 1 { return ReportDestination(format: format, path: output) }
                return ReportDestination(format: format, path: path(output, withExtensionOf: format))
            }
            if let manifestPath, manifestPath != "-" {
                return ReportDestination(format: format, path: path(manifestPath, withExtensionOf: format))
            }
            return ReportDestination(format: format, path: "-")
        }
    }

    /// `base` with `.ext` of `format` added, unless it already ends with it.
    ///
    /// ```swift
    /// ReportDestination.path("reports/practice", withExtensionOf: .markdown)   // "reports/practice.md"
    /// ReportDestination.path("report.html", withExtensionOf: .html)            // "report.html"
    /// ```
    public static func path(_ base: String, withExtensionOf format: ReportFormat) -> String {
        let suffix = "." + format.fileExtension
        return base.lowercased().hasSuffix(suffix) ? base : base + suffix
    }
}
