import StillpointStatistics
/// Where and how a report is written: a manifest's `output:` section.
///
/// ```yaml
/// output:
///   formats: [html, json]
///   path: reports/practice     # reports/practice.html and reports/practice.json; omit for standard output
/// ```
///
/// `path` is relative to the manifest's folder, like `store:`; each format's file is `path` with the format's
/// extension added (unless `path` already ends with it), and `-` is standard output.
public struct ManifestOutput: Sendable, Hashable {
    /// The formats, in order; `[.text]` unless the manifest says otherwise.
    public var formats: [ReportFormat]
    /// Where to write, as written in the manifest; `nil` for standard output. See ``Manifest/outputPath``.
    public var path: String?

    public init(formats: [ReportFormat] = [.text], path: String? = nil) {
        self.formats = formats
        self.path = path
    }
}
