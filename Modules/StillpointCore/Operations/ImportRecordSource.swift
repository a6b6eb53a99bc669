/// Where an ``ImportOperation`` reads its records from, one at a time: importers adapt their readers to it.
///
/// A source is made and used inside the import's context (see ``ImportOperation/SourceFactory``), so it
/// need not be `Sendable` and may hold a file open. Reading is synchronous: the import runs on its
/// context's own thread, never on the main actor.
///
/// ```swift
/// struct SessionSource: ImportRecordSource {
///     let reader: SessionRecordReader
///     mutating func next() throws -> ImportSourceElement? {
///         switch try reader.next() {
///         case .record(let session, let line)?:
///             return .record(ImportRecord(["key": .string(session.key), "start": .date(session.start)], position: line))
///         case .issue(let issue)?:
///             return .issue(ImportRecordIssue(position: issue.line, reason: issue.reason))
///         case nil:
///             return nil
///         }
///     }
/// }
/// ```
///
/// Built-in conformers: none public; ``ImportOperation/init(entity:key:batchSize:records:identifier:priority:context:)``
/// reads an array.
public protocol ImportRecordSource {
    /// The next record or skipped record, or `nil` once the source is done.
    ///
    /// - Throws: when the source cannot be read any further; the import stops, keeping the batches saved.
    mutating func next() throws -> ImportSourceElement?

    /// How many records the source holds, if it knows, for progress.
    var expectedRecordCount: Int? { get }
}

extension ImportRecordSource {
    public var expectedRecordCount: Int? { nil }
}

/// Records from an array.
struct ImportRecordArraySource: ImportRecordSource {
    let records: [ImportRecord]
    var index = 0

    mutating func next() throws -> ImportSourceElement? {
        guard index < records.count else { return nil }
        defer { index += 1 }
        return .record(records[index])
    }

    var expectedRecordCount: Int? { records.count }
}
