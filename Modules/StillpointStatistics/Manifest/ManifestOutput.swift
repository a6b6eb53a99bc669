/// Where and how a report is written: a manifest's `output:` section.
///
/// ```yaml
/// output:
///   formats: [text, json]
///   path: reports/practice     # reports/practice.txt and reports/practice.json; omit for standard output
/// ```
public struct ManifestOutput: Sendable, Hashable {
    /// The formats, in order; `[.text]` unless the manifest says otherwise.
    public var formats: [OutputFormat]
    /// Where to write, as written in the manifest; `nil` for standard output.
    public var path: String?

    public init(formats: [OutputFormat] = [.text], path: String? = nil) {
        self.formats = formats
        self.path = path
    }
}
