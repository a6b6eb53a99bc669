/// What an ``ImportRecordSource`` yields: a record to store, or one it could not read.
///
/// ```swift
/// mutating func next() throws -> ImportSourceElement? {
///     guard let row = try reader.nextRow() else { return nil }
///     guard let start = parse(row[0]) else { return .issue(ImportRecordIssue(position: row.line, reason: "bad date")) }
///     return .record(ImportRecord(["start": .date(start)], position: row.line))
/// }
/// ```
public enum ImportSourceElement: Sendable, Hashable {
    case record(ImportRecord)
    /// A record the source skipped; the import counts it and keeps the reason.
    case issue(ImportRecordIssue)
}
