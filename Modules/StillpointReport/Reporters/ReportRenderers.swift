import StillpointManifest

/// The renderers a report can be written with, by format: Stillpoint's five, and any added from outside, as
/// ``StatisticCatalog`` holds the statistics.
///
/// A format is one name in one place: a renderer from outside names its own ``ReportFormat``, and once added,
/// the command line (`--format`) and a manifest (`output: {formats: [...]}`) accept it.
///
/// ```swift
/// struct TSVReportRenderer: ReportRenderer {
///     let format = ReportFormat(name: "tsv", fileExtension: "tsv")
///     func render(_ report: Report) -> String { ... }
/// }
///
/// var renderers = ReportRenderers.builtIn
/// try renderers.add(TSVReportRenderer())
/// let manifest = try Manifest(yaml: "output: {formats: [tsv]}", formats: renderers.formats)
/// let text = renderers.renderer(for: manifest.output.formats[0])?.render(report)
/// ```
public struct ReportRenderers: Sendable {
    /// The renderers, in the order they were added.
    public private(set) var renderers: [any ReportRenderer] = []

    /// Stillpoint's own renderers, one for each of ``ReportFormat/builtIn``.
    public static let builtIn = ReportRenderers(unchecked: [
        TextReportRenderer(), JSONReportRenderer(), MarkdownReportRenderer(), CSVReportRenderer(), HTMLReportRenderer(),
    ])

    /// No renderers; ``add(_:)`` them.
    public init() {}

    /// Stillpoint's own renderers, whose formats are known to differ.
    private init(unchecked renderers: [any ReportRenderer]) {
        self.renderers = renderers
    }

    /// Adds a renderer for a format none of the others writes.
    ///
    /// - Throws: ``ReportRendererError/duplicateFormat(_:)`` when another renderer already writes a format of
    ///   that name.
    public mutating func add(_ renderer: any ReportRenderer) throws(ReportRendererError) {
        guard self.renderer(for: renderer.format) == nil else { throw .duplicateFormat(renderer.format.name) }
        renderers.append(renderer)
    }

    /// The formats of the renderers, in order: what a manifest is read with and `--format` accepts.
    public var formats: [ReportFormat] { renderers.map(\.format) }

    /// The renderer of the format named like `format`; `nil` when none writes it.
    public func renderer(for format: ReportFormat) -> (any ReportRenderer)? {
        renderers.first { $0.format.name == format.name }
    }
}
