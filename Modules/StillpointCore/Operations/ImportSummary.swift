/// What an import did: records read, inserted, updated, left unchanged and skipped, and how many batches
/// are saved. An import that stopped part-way says how far it got with the same numbers.
///
/// ```swift
/// let summary = try await importOperation.value
/// print("\(summary.inserted) new, \(summary.updated) updated, \(summary.skipped) skipped")
/// ```
///
/// `inserted + updated + unchanged` counts the records of saved batches only; a batch that was not saved
/// counts in ``recordsRead`` and nowhere else.
public struct ImportSummary: Sendable, Hashable {
    /// Records taken from the source (not counting the ones the source itself skipped).
    public var recordsRead = 0
    /// Records that became new objects.
    public var inserted = 0
    /// Records that changed an existing object.
    public var updated = 0
    /// Records that matched an existing object value for value: nothing was written for them.
    public var unchanged = 0
    /// Records skipped: reported by the source, or with values that do not fit the entity.
    public var skipped = 0
    /// Batches done and in the store (a batch with nothing to change needs no write, and counts too).
    public var batchesSaved = 0
    /// Records read up to the end of the last saved batch: a source that can seek can resume here.
    /// Importing everything again is safe too, since records are matched by key.
    public var recordsSaved = 0
    /// The first ``issueLimit`` skipped records, with their reasons.
    public var issues: [ImportRecordIssue] = []

    /// How many issues are kept; the rest are only counted, so that a bad file cannot fill memory.
    public static let issueLimit = 1_000

    public init() {}

    mutating func skip(_ issue: ImportRecordIssue) {
        skipped += 1
        if issues.count < Self.issueLimit { issues.append(issue) }
    }
}
