/// The explicit list of built-in reporters, one per ``ReportFormat``.
///
/// ```swift
/// ReportRenderers.builtIn.map(\.id)             // ["text", "json", "markdown", "csv", "html"]
/// ReportRenderers.renderer(id: "csv")?.render(report)
/// ```
public enum ReportRenderers {
    /// Every built-in renderer, in the order of ``ReportFormat/allCases``.
    public static let builtIn: [any ReportRenderer] = [
        TextReportRenderer(),
        JSONReportRenderer(),
        MarkdownReportRenderer(),
        CSVReportRenderer(),
        HTMLReportRenderer(),
    ]

    /// The built-in renderer whose ``ReportRenderer/id`` is `id`, or `nil`.
    public static func renderer(id: String) -> (any ReportRenderer)? {
        builtIn.first { $0.id == id }
    }
}
