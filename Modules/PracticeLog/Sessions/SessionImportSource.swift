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
///
/// Records that name their practitioner (a practitioner column) belong to the practitioner named and are linked to
/// that practitioner's run (``ImportRecord/link``):
///
/// ```swift
/// SessionImportSource(reader: reader, owners: ["alice": .init(practitioner: alice, run: aliceRun)])
/// ```
public struct SessionImportSource: ImportRecordSource {
    /// A practitioner a bulk load meets, and the run that imports their sessions, by row id.
    public struct Owner: Sendable, Hashable {
        public var practitioner: Int64
        public var run: Int64

        public init(practitioner: Int64, run: Int64) {
            self.practitioner = practitioner
            self.run = run
        }
    }

    private let reader: SessionRecordReader
    private let practitioner: AttributeValue
    /// By practitioner id, when the records name their practitioner.
    private let owners: [String: Owner]?

    /// The attributes that identify an imported session: a key is unique per practitioner.
    public static let key = [Session.practitioner.name, Session.key.name]

    /// Records from `reader`, for the practitioner with row id `practitioner`. The run that reads them is linked to
    /// each by the import (``ImportOperation/Link``).
    public init(reader: SessionRecordReader, practitioner: Int64) {
        self.reader = reader
        self.practitioner = .integer(practitioner)
        self.owners = nil
    }

    /// Records from `reader` that each name their practitioner: each is given to the practitioner `owners` has
    /// for that id and linked to their run (the import links through ``ImportOperation/Link/init(eachRecordThrough:)``).
    public init(reader: SessionRecordReader, owners: [String: Owner]) {
        self.reader = reader
        self.practitioner = .null
        self.owners = owners
    }

    /// Rows left out because they are not practice, by their type (see ``SessionRecordReader/notPractice``).
    public var notPractice: [String: Int] { reader.notPractice }

    public mutating func next() throws -> ImportSourceElement? {
        switch try reader.next() {
        case .record(let record, let line)?:
            var values = record.attributeValues
            guard let owners else {
                values[Session.practitioner.name] = practitioner
                return .record(ImportRecord(values, position: line))
            }
            guard let id = record.practitioner, let owner = owners[id] else {
                // The file was read once for its practitioners before the import: it changed since.
                return .issue(ImportRecordIssue(position: line, reason: "names a practitioner the file did not name when it was first read "
                                                    + "(it changed during the import); import it again"))
            }
            values[Session.practitioner.name] = .integer(owner.practitioner)
            return .record(ImportRecord(values, position: line, link: ObjectID(entity: ImportRun.entity, rowID: owner.run)))
        case .issue(let issue)?:
            return .issue(ImportRecordIssue(position: issue.line, reason: issue.reason))
        case nil:
            return nil
        }
    }
}
