/// What pulling from a ``SessionRecordReader`` yields: a session, or a row that was skipped.
///
/// ```swift
/// while let event = try reader.next() {
///     switch event {
///     case .record(let record, _): batch.append(record)
///     case .issue(let issue): print(issue)   // "line 17: duration '1:x:0' is not H:M:S"
///     }
/// }
/// ```
public enum ImportEvent: Sendable, Equatable {
    /// A session, with the 1-based line where its row or element starts.
    case record(SessionRecord, line: Int)
    /// A row or element that was skipped.
    case issue(ImportIssue)
}
