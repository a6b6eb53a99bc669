import StillpointStatistics

/// A format a report can be written in, named as the command line names it.
///
/// ```swift
/// let format = ReportFormat(argument: "json")   // .json
/// print(format.renderer.render(report))
/// ```
public enum ReportFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case text
    case json
    case markdown
    case csv
    case html

    /// The format named by a command-line argument (`text|json|markdown|csv|html`), case-insensitively;
    /// `nil` for any other name.
    ///
    /// ```swift
    /// ReportFormat(argument: "Markdown")   // .markdown
    /// ReportFormat(argument: "pdf")        // nil
    /// ```
    public init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }

    /// The format a manifest's `output: {formats: [...]}` names.
    ///
    /// ```swift
    /// manifest.output.formats.map(ReportFormat.init)   // [.text, .json]
    /// ```
    public init(_ format: OutputFormat) {
        switch format {
        case .text: self = .text
        case .json: self = .json
        case .markdown: self = .markdown
        case .csv: self = .csv
        case .html: self = .html
        }
    }

    /// The names the command line accepts, for help texts: `text|json|markdown|csv|html`.
    public static var argumentList: String {
        allCases.map(\.rawValue).joined(separator: "|")
    }

    /// The built-in renderer of this format.
    ///
    /// ```swift
    /// ReportFormat.csv.renderer.render(report)
    /// ```
    public var renderer: any ReportRenderer {
        switch self {
        case .text: TextReportRenderer()
        case .json: JSONReportRenderer()
        case .markdown: MarkdownReportRenderer()
        case .csv: CSVReportRenderer()
        case .html: HTMLReportRenderer()
        }
    }

    /// The file extension of a report in this format, without the dot: `reports/practice.md`.
    public var fileExtension: String {
        switch self {
        case .text: "txt"
        case .json: "json"
        case .markdown: "md"
        case .csv: "csv"
        case .html: "html"
        }
    }

    public var description: String { rawValue }
}
