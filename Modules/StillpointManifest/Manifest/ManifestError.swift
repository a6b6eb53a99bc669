import Foundation
import StillpointCore
import StillpointStatistics

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
    /// Whether the problem is that the manifest's file cannot be read at all (it does not exist, is a folder,
    /// or may not be read), rather than what it says: a missing input, not bad data.
    public var isUnreadableFile: Bool

    /// `message` and `sourceLine` lose any password they quote (a `store:` line's URI, a YAML error's excerpt).
    public init(location: SourceLocation?, message: String, sourceLine: String? = nil, isUnreadableFile: Bool = false) {
        self.location = location
        self.message = StoreLocation.redactingPasswords(in: message)
        self.sourceLine = sourceLine.map(StoreLocation.redactingPasswords(in:))
        self.isUnreadableFile = isUnreadableFile
    }

    /// The problem on one line, with its place but without the `error:` of ``description``, for a tool that
    /// prints its own prefix: `Config/default.yaml:12:5: unknown key 'statistcs'; did you mean 'statistics'?`.
    /// A message of several lines (a predicate's, with its own caret) keeps its first.
    public var locatedMessage: String {
        var line = message.prefix { $0 != "\n" }
        if line.count < message.count, line.hasSuffix(":") { line = line.dropLast() }
        return (location.map { "\($0): " } ?? "") + line
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
