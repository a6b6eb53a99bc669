import Foundation
import StillpointCore

/// One import of a file: what was read, how, and what it did. The sessions it wrote name it in
/// ``Session/importRun``, so that importing the same file again replaces them and `stillpoint imports remove`
/// takes them out.
///
/// ```swift
/// let run = context.insert(ImportRun.self)
/// run[ImportRun.file] = "Insight Timer Sessions.csv"
/// run[ImportRun.contentHash] = try ContentHash.sha256(of: url)
/// ```
public enum ImportRun: Entity {
    /// The file's name as it was given (`-` for standard input).
    public static let file = Attribute<String>("file")
    /// The SHA-256 of the file's bytes, in hex: the same file imported again has the same hash.
    public static let contentHash = Attribute<String>("contentHash")
    /// The import format: `insight-timer`, `apple-health`, `csv`, ...
    public static let format = Attribute<String>("format")
    /// The options that change what is stored (`--time-zone Europe/Berlin`), as given.
    public static let options = Attribute<String>("options", default: "")
    /// When the import started.
    public static let startedAt = Attribute<Date>("startedAt")
    public static let inserted = Attribute<Int>("inserted", default: 0)
    public static let updated = Attribute<Int>("updated", default: 0)
    public static let unchanged = Attribute<Int>("unchanged", default: 0)
    public static let skipped = Attribute<Int>("skipped", default: 0)
    /// Whether the import read the whole file; an import that stopped part-way keeps what it saved.
    public static let isComplete = Attribute<Bool>("isComplete", default: false)
    /// When the import ended (complete or not); `nil` while it runs, or when it was killed.
    public static let finishedAt = Attribute<Date?>("finishedAt")
    /// The sessions the run wrote last: removing the run removes them.
    public static let sessions = ToMany<Session>("sessions", inverse: "importRun", deleteRule: .cascade)

    public static let entity = EntityDescription(
        "ImportRun",
        attributes: [file, contentHash, format, options, startedAt, inserted, updated, unchanged, skipped, isComplete, finishedAt],
        relationships: [sessions],
        indexes: [IndexDescription([contentHash])])
}
