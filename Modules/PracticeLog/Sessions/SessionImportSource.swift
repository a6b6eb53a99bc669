import StillpointCore

/// Feeds an importer's records to an ``ImportOperation``: each session record becomes an import record of one
/// practitioner, keyed by the practitioner and its `key` (``SessionImportSource/key``), each skipped row an issue
/// with its line.
///
/// ```swift
/// let operation = ImportOperation(entity: Session.entity, key: SessionImportSource.key) {
///     SessionImportSource(reader: try InsightTimerImporter().makeRecordReader(url: url), practitioner: me)
/// }
/// ```
public struct SessionImportSource: ImportRecordSource {
    private let reader: SessionRecordReader
    private let practitioner: AttributeValue

    /// The attributes that identify an imported session: a key is unique per practitioner.
    public static let key = [Session.practitioner.name, Session.key.name]

    /// Records from `reader`, for the practitioner with row id `practitioner`. The run that reads them is linked to
    /// each by the import (``ImportOperation/Link``).
    public init(reader: SessionRecordReader, practitioner: Int64) {
        self.reader = reader
        self.practitioner = .integer(practitioner)
    }

    /// Rows left out because they are not practice, by their type (see ``SessionRecordReader/notPractice``).
    public var notPractice: [String: Int] { reader.notPractice }

    public mutating func next() throws -> ImportSourceElement? {
        switch try reader.next() {
        case .record(let record, let line)?:
            var values = record.attributeValues
            values[Session.practitioner.name] = practitioner
            return .record(ImportRecord(values, position: line))
        case .issue(let issue)?:
            return .issue(ImportRecordIssue(position: issue.line, reason: issue.reason))
        case nil:
            return nil
        }
    }
}
