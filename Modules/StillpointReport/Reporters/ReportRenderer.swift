import StillpointManifest
import StillpointStatistics

/// Turns a finished report into the text of one format: the extension point of reporters.
///
/// Conformers are small value types, one per ``ReportFormat`` (``ReportRenderers/builtIn`` lists the built-in
/// ones), and static members let call sites name them the way they name formats.
///
/// ```swift
/// let json = render(report, with: .json)
///
/// func render(_ report: Report, with renderer: some ReportRenderer) -> String {
///     renderer.render(report)
/// }
/// ```
public protocol ReportRenderer: Sendable {
    /// The format this renderer writes.
    var format: ReportFormat { get }

    /// The whole report in this format, ending with a newline.
    func render(_ report: Report) -> String
}

extension ReportRenderer where Self == TextReportRenderer {
    /// The plain-text summary table.
    public static var text: TextReportRenderer { TextReportRenderer() }
}

extension ReportRenderer where Self == JSONReportRenderer {
    /// The stable JSON document described in `docs/json-report.md`.
    public static var json: JSONReportRenderer { JSONReportRenderer() }
}

extension ReportRenderer where Self == MarkdownReportRenderer {
    /// A Markdown table, with a sub-table for each record.
    public static var markdown: MarkdownReportRenderer { MarkdownReportRenderer() }
}

extension ReportRenderer where Self == CSVReportRenderer {
    /// RFC 4180 CSV, one row per value, records flattened to `name.key.subkey`.
    public static var csv: CSVReportRenderer { CSVReportRenderer() }
}

extension ReportRenderer where Self == HTMLReportRenderer {
    /// A self-contained HTML page with inline SVG charts.
    public static var html: HTMLReportRenderer { HTMLReportRenderer() }
}
