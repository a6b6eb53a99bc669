/// A format a report can be written in, as a manifest's `output: {formats: [...]}` names it.
///
/// ```swift
/// manifest.output.formats   // [.text, .json]
/// ```
public enum OutputFormat: String, Sendable, Hashable, CaseIterable {
    case text
    case json
    case markdown
    case csv
    case html
}
