import Foundation

/// A request ``LiveReports`` cannot answer because of what it asked for.
///
/// ```swift
/// catch let error as LiveReportsError { respond(400, error.localizedDescription) }
/// ```
public enum LiveReportsError: Error, Equatable, LocalizedError {
    /// No manifest of this name was given to the service; `known` are the names it has.
    case unknownManifest(String, known: [String])
    /// No renderer writes this format; `known` are the formats there are.
    case unknownFormat(String, known: [String])

    public var errorDescription: String? {
        switch self {
        case .unknownManifest(let name, let known):
            "there is no manifest '\(name)'; name one of: \(known.joined(separator: ", "))"
        case .unknownFormat(let name, let known):
            "'\(name)' is not a report format; use one of: \(known.joined(separator: ", "))"
        }
    }
}
