import Foundation

/// A statistic id that is unknown or taken twice.
public enum CatalogError: Error, Sendable, Hashable, LocalizedError, CustomStringConvertible {
    case unknownID(String, suggestion: String?)
    case duplicateID(String)

    public var description: String {
        switch self {
        case .unknownID(let id, let suggestion):
            return "there is no statistic '\(id)'" + (suggestion.map { "; did you mean '\($0)'?" } ?? "")
                + " (`stillpoint statistics` lists them all)"
        case .duplicateID(let id):
            return "two statistics have the id '\(id)'; ids must be unique"
        }
    }

    public var errorDescription: String? { description }
}
