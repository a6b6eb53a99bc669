/// A format a report can be written in: the one name for it, on the command line (`--format json`), in a
/// manifest (`output: {formats: [text, json]}`) and for its renderer (`ReportFormat.json.renderer`).
///
/// ```swift
/// let format = ReportFormat(argument: "json")   // .json
/// manifest.output.formats                       // [.text, .json]
/// ```
public enum ReportFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case text
    case json
    case markdown
    case csv
    case html

    /// The format named by a command-line argument or a manifest (`text|json|markdown|csv|html`), case-insensitively;
    /// `nil` for any other name.
    ///
    /// ```swift
    /// ReportFormat(argument: "Markdown")   // .markdown
    /// ReportFormat(argument: "pdf")        // nil
    /// ```
    public init?(argument: String) {
        self.init(rawValue: argument.lowercased())
    }

    /// The names the command line accepts, for help texts: `text|json|markdown|csv|html`.
    public static var argumentList: String {
        allCases.map(\.rawValue).joined(separator: "|")
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
