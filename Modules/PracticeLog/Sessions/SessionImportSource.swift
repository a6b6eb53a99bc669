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
    private let run: Int64?

    /// Records from `reader`; each session names `run` (an ``ImportRun``) when one is given.
    public init(reader: SessionRecordReader, run: Int64? = nil) {
        self.reader = reader
        self.run = run
    }

    /// Rows left out because they are not practice, by their type (see ``SessionRecordReader/notPractice``).
    public var notPractice: [String: Int] { reader.notPractice }

    public mutating func next() throws -> ImportSourceElement? {
        switch try reader.next() {
        case .record(let record, let line)?:
            var values = record.attributeValues
            if let run { values[Session.importRun.name] = .integer(run) }
            return .record(ImportRecord(values, position: line))
        case .issue(let issue)?:
            return .issue(ImportRecordIssue(position: issue.line, reason: issue.reason))
        case nil:
            return nil
        }
    }
}
