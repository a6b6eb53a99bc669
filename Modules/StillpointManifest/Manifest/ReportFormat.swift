/// A format a report can be written in: the one name for it, on the command line (`--format json`), in a
/// manifest (`output: {formats: [text, json]}`) and for its renderer (`ReportRenderers.builtIn.renderer(for: .json)`).
///
/// The five built-in formats are static members; a renderer from outside brings a format of its own and is
/// registered in `StillpointReport`'s `ReportRenderers`, whose ``ReportRenderers/formats`` a manifest is then
/// read with.
///
/// ```swift
/// let format = ReportFormat(argument: "json")                        // .json
/// let tsv = ReportFormat(name: "tsv", fileExtension: "tsv")          // an outside renderer's format
/// manifest.output.formats                                             // [.text, .json]
/// ```
public struct ReportFormat: Sendable, Hashable, CustomStringConvertible {
    /// The format's name, lowercase, as the command line and a manifest write it.
    public let name: String
    /// The file extension of a report in this format, without the dot: `reports/practice.md`.
    public let fileExtension: String

    /// A format named `name` (stored lowercase, since names are matched case-insensitively) whose files end in
    /// `.fileExtension`.
    public init(name: String, fileExtension: String) {
        self.name = name.lowercased()
        self.fileExtension = fileExtension
    }

    public static let text = ReportFormat(name: "text", fileExtension: "txt")
    public static let json = ReportFormat(name: "json", fileExtension: "json")
    public static let markdown = ReportFormat(name: "markdown", fileExtension: "md")
    public static let csv = ReportFormat(name: "csv", fileExtension: "csv")
    public static let html = ReportFormat(name: "html", fileExtension: "html")

    /// The formats of Stillpoint's own renderers, in the order help texts list them.
    public static let builtIn: [ReportFormat] = [.text, .json, .markdown, .csv, .html]

    /// The format among `formats` named by a command-line argument or a manifest, case-insensitively; `nil`
    /// for any other name.
    ///
    /// ```swift
    /// ReportFormat(argument: "Markdown")   // .markdown
    /// ReportFormat(argument: "pdf")        // nil
    /// ```
    public init?(argument: String, among formats: [ReportFormat] = builtIn) {
        let name = argument.lowercased()
        guard let format = formats.first(where: { $0.name == name }) else { return nil }
        self = format
    }

    /// The names of `formats` for help texts: `text|json|markdown|csv|html`.
    public static func argumentList(_ formats: [ReportFormat] = builtIn) -> String {
        formats.map(\.name).joined(separator: "|")
    }

    public var description: String { name }
}
