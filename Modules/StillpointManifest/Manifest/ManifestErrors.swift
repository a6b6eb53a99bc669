import Foundation
import StillpointStatistics

/// Every problem found in a manifest, in the order of the file, so that one run reports them all.
///
/// ```swift
/// do { _ = try Manifest.load(contentsOf: url) }
/// catch let errors as ManifestErrors { errors.errors.forEach { print($0) } }
/// ```
public struct ManifestErrors: Error, Sendable, Hashable, LocalizedError, CustomStringConvertible {
    public var errors: [ManifestError]

    public init(_ errors: [ManifestError]) {
        self.errors = errors
    }

    public var description: String {
        let count = errors.count == 1 ? "1 problem" : "\(errors.count) problems"
        return errors.map(\.description).joined(separator: "\n") + "\n\(count) in the manifest"
    }

    public var errorDescription: String? { description }

    /// Whether the manifest's file could not be read at all (see ``ManifestError/isUnreadableFile``).
    public var isUnreadableFile: Bool {
        !errors.isEmpty && errors.allSatisfy(\.isUnreadableFile)
    }

    /// The first problem on one line, with how many more there are, for a tool that stops at the manifest:
    /// `my.yaml:3:16: day_starts_at must lie within a day, ... (and 2 more problems; `stillpoint validate my.yaml` lists them all)`.
    public var summary: String {
        guard let first = errors.first else { return "the manifest has a problem" }
        guard errors.count > 1 else { return first.locatedMessage }
        let file = first.location?.file.map { " " + $0 } ?? ""
        let more = errors.count == 2 ? "1 more problem" : "\(errors.count - 1) more problems"
        return first.locatedMessage + " (and \(more); `stillpoint validate\(file)` lists them all)"
    }
}
