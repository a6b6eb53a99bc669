import Foundation

/// Why a report of one practitioner (``PractitionerReports``) could not be made, or one of its statistics failed.
///
/// ```swift
/// catch let error as PractitionerReportError { print(error.localizedDescription) }
/// ```
public enum PractitionerReportError: Error, Equatable, LocalizedError {
    /// The statistic with this id reads the store rather than the report's digest, so it would count every
    /// practitioner's sessions: it is left out of per-practitioner reports until the store applies a scope.
    case readsTheStore(String)

    public var errorDescription: String? {
        switch self {
        case .readsTheStore(let id):
            "statistic '\(id)' reads the store directly, which would count every practitioner's sessions; "
                + "it cannot be part of a per-practitioner report yet: compute it from the session digest"
        }
    }
}
