import Foundation

/// The file is not in the importer's format at all, so no record was read from it.
///
/// Thrown by ``SessionImporter/makeRecordReader(url:)`` before any record: a wrong or missing header, a
/// file that is not XML, an XML file without a `HealthData` root, a ZIP without an export, an empty file.
///
/// ```swift
/// do { _ = try InsightTimerImporter().makeRecordReader(url: url) }
/// catch let error as ImportFormatError { print(error.localizedDescription) }
/// // "/tmp/log.csv is not an Insight Timer export: expected the header 'Started At,Duration,Preset,Activity',
/// //  found 'Date,Minutes'. Export the sessions again from Insight Timer, or import the file as a generic CSV
/// //  with its columns named."
/// ```
public struct ImportFormatError: Error, LocalizedError, Sendable, Equatable {
    /// The file that was read.
    public var path: String
    /// What the file should have been, for example `an Insight Timer export`.
    public var format: String
    /// What the importer looked for.
    public var expected: String
    /// What it found instead.
    public var found: String
    /// What the person can do about it.
    public var suggestion: String

    public init(path: String, format: String, expected: String, found: String, suggestion: String) {
        self.path = path
        self.format = format
        self.expected = expected
        self.found = found
        self.suggestion = suggestion
    }

    public var errorDescription: String? {
        "\(path) is not \(format): expected \(expected), found \(found). \(suggestion)"
    }

    public var recoverySuggestion: String? { suggestion }
}
