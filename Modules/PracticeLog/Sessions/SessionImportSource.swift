import StillpointCore

/// Feeds an importer's records to an ``ImportOperation``: each session record becomes an import record keyed
/// by its `key`, each skipped row an issue with its line.
///
/// ```swift
/// let operation = ImportOperation(entity: Session.entity, key: ["key"]) {
///     SessionImportSource(reader: try InsightTimerImporter().makeRecordReader(url: url))
/// }
/// ```
public struct SessionImportSource: ImportRecordSource {
    private let reader: SessionRecordReader

    /// Records from `reader`. The run that reads them is linked to each by the import (``ImportOperation/Link``).
    public init(reader: SessionRecordReader) {
        self.reader = reader
    }

    /// Rows left out because they are not practice, by their type (see ``SessionRecordReader/notPractice``).
    public var notPractice: [String: Int] { reader.notPractice }

    public mutating func next() throws -> ImportSourceElement? {
        switch try reader.next() {
        case .record(let record, let line)?:
            return .record(ImportRecord(record.attributeValues, position: line))
        case .issue(let issue)?:
            return .issue(ImportRecordIssue(position: issue.line, reason: issue.reason))
        case nil:
            return nil
        }
    }
}
