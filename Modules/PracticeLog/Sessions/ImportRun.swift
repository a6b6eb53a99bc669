import Foundation
import StillpointCore

/// One import of a file: what was read, how, and what it did. Every session it read (new, updated or already
/// there) is linked to it through ``sessions`` (``Session/importRuns``): removing the run, or importing the same file
/// again, removes the sessions that no other run read (docs/import-runs.md).
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
    /// The process that runs the import (``ImportRunProcess``): a run that never ended and whose process is gone
    /// was killed. Empty for runs made before it was recorded.
    public static let process = Attribute<String>("process", default: "")
    /// The sessions the run read. Deleting a run deletes its links, not the sessions: ``ImportRuns/remove(_:from:)``
    /// removes those no other run read.
    public static let sessions = ToMany<Session>("sessions", inverse: "importRuns")
    /// The ``Practitioner`` whose sessions the run imported: required.
    public static let practitioner = ToOne<Practitioner>("practitioner", inverse: "importRuns", isRequired: true)

    /// The table of links between runs and the sessions they read (`_ImportRun_sessions`), which the schema adds.
    public static let sessionLinksEntityName = ManyToManyLink(sessions.relationshipDescription, of: "ImportRun").entityName

    public static let entity = EntityDescription(
        "ImportRun",
        attributes: [file, contentHash, format, options, startedAt, inserted, updated, unchanged, skipped, isComplete, finishedAt, process],
        relationships: [sessions, practitioner],
        indexes: [IndexDescription(names: [practitioner.name, contentHash.name])])
}
