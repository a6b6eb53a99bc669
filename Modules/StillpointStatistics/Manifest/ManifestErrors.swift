import Foundation

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
}
