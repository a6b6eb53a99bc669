import Foundation

/// One problem in a manifest: where it is, what is wrong, and what to do about it.
///
/// Its description reads like a compiler's, with the line and a caret under the column:
///
/// ```text
/// Config/default.yaml:12:5: error: unknown key 'statistcs'; did you mean 'statistics'?
///     statistcs:
///     ^
/// ```
public struct ManifestError: Error, Sendable, Hashable, LocalizedError, CustomStringConvertible {
    /// Where in the manifest; `nil` when the problem is the file itself (it cannot be read).
    public var location: SourceLocation?
    /// What is wrong and what to do, without the location.
    public var message: String
    /// The manifest's line at `location`, shown with a caret under the column.
    public var sourceLine: String?

    public init(location: SourceLocation?, message: String, sourceLine: String? = nil) {
        self.location = location
        self.message = message
        self.sourceLine = sourceLine
    }

    public var description: String {
        var text = (location.map { "\($0): " } ?? "") + "error: " + message
        if let sourceLine, let location, location.column >= 1 {
            // Columns count Unicode scalars, as Yams does; tabs become spaces so the caret lines up.
            let shown = String(String.UnicodeScalarView(sourceLine.unicodeScalars.map { $0 == "\t" ? " " : $0 }))
            let pad = min(location.column - 1, shown.unicodeScalars.count)
            text += "\n    \(shown)\n    \(String(repeating: " ", count: pad))^"
        }
        return text
    }

    public var errorDescription: String? { description }
}
