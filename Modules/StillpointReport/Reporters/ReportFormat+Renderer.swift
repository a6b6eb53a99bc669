import StillpointStatistics

extension ReportFormat {
    /// The built-in renderer of this format; `ReportFormat.allCases.map(\.renderer)` are all of them.
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
}
