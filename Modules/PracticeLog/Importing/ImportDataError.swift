import Foundation

/// The file breaks off part-way, so the rest of it cannot be read: a quoted CSV field that is never closed, a
/// record larger than ``ImportLimits/maxRecordBytes``, markup that is broken, or a document that ends early.
///
/// Thrown by ``SessionImporter/makeRecordReader(url:)`` or ``SessionRecordReader/next()``; after it the
/// reader yields nothing more. Unlike a bad row, which is skipped, this is never silent: the rows after
/// `line` were not read, so the import must not report success.
///
/// ```swift
/// // "/tmp/log.csv line 1002: the quoted field opened on this line is never closed, so no row from here on
/// //  could be read. Close the quote (or remove it) and import the file again."
/// ```
public struct ImportDataError: Error, LocalizedError, Sendable, Equatable {
    /// The file that was read.
    public var path: String
    /// The 1-based line where the broken part starts.
    public var line: Int
    /// What is wrong there.
    public var reason: String
    /// What the person can do about it.
    public var suggestion: String

    public init(path: String, line: Int, reason: String, suggestion: String) {
        self.path = path
        self.line = line
        self.reason = reason
        self.suggestion = suggestion
    }

    public var errorDescription: String? {
        "\(path) line \(line): \(reason). \(suggestion)"
    }

    public var recoverySuggestion: String? { suggestion }
}

/// What the readers below the importers throw when the input breaks off; the importer adds the path and
/// turns it into an ``ImportDataError``.
struct MalformedInput: Error, Equatable {
    var line: Int
    var reason: String
    var suggestion: String

    func error(path: String) -> ImportDataError {
        ImportDataError(path: path, line: line, reason: reason, suggestion: suggestion)
    }

    /// A record over ``ImportLimits/maxRecordBytes``.
    static func tooLarge(line: Int, what: String, hint: String) -> MalformedInput {
        MalformedInput(
            line: line,
            reason: "\(what) is longer than \(ImportLimits.maxRecordSize), the limit for one record\(hint)",
            suggestion: "Check that this is the export you meant (not a binary file) and that its quotes are closed.")
    }
}

extension ImportReadError {
    /// The public error for anything a reader threw while reading `path`.
    static func wrapping(_ error: any Error, path: String, line: Int?) -> any Error {
        if let malformed = error as? MalformedInput { return malformed.error(path: path) }
        if error is ImportDataError || error is ImportFormatError { return error }
        return ImportReadError(path: path, line: line, underlying: error)
    }
}
