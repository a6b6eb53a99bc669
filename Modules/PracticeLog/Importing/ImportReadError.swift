import Foundation

/// The file could not be read: it is missing, unreadable, or its archive is damaged.
///
/// Thrown when opening a file, or by ``SessionRecordReader/next()`` when reading fails part-way; records
/// already pulled from that reader should then be discarded together, since the rest never arrived.
///
/// ```swift
/// // "/tmp/export.zip could not be read after line 120345: the checksum of apple_health_export/export.xml
/// //  does not match: the archive is damaged. Export the data from Apple Health again."
/// ```
public struct ImportReadError: Error, LocalizedError, Sendable, Equatable {
    /// The file that was read.
    public var path: String
    /// The last line read before the failure, or `nil` when the file could not be opened.
    public var line: Int?
    /// What went wrong.
    public var reason: String
    /// What the person can do about it.
    public var suggestion: String

    public init(path: String, line: Int?, reason: String, suggestion: String) {
        self.path = path
        self.line = line
        self.reason = reason
        self.suggestion = suggestion
    }

    public var errorDescription: String? {
        let place = line.map { " after line \($0)" } ?? ""
        return "\(path) could not be read\(place): \(reason). \(suggestion)"
    }

    public var recoverySuggestion: String? { suggestion }
}

extension ImportReadError {
    /// Wraps a lower-level failure, keeping a more specific `ImportReadError` as it is.
    init(path: String, line: Int?, underlying error: any Error) {
        if var error = error as? ImportReadError {
            error.line = error.line ?? line
            self = error
            return
        }
        self.init(
            path: path,
            line: line,
            reason: (error as? any LocalizedError)?.errorDescription ?? String(describing: error),
            suggestion: "Check that the file is complete and readable, then import it again."
        )
    }
}
