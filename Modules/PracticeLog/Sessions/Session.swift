import Foundation
import StillpointCore

/// One practice session: the entity every statistic reads.
///
/// ```swift
/// let session = context.insert(Session.self)
/// session[Session.start] = start
/// session[Session.duration] = 20 * 60
/// session[Session.kind] = "yoga"
/// session[Session.key] = "manual-\(start.timeIntervalSince1970)"
/// ```
public enum Session: Entity {
    /// The instant the session started.
    public static let start = Attribute<Date>("start")
    /// How long it lasted, in seconds.
    public static let duration = Attribute<Double>("duration")
    /// `meditation`, `yoga`, ... (lowercase, snake_case).
    public static let kind = Attribute<String>("kind", default: "meditation")
    /// Where it came from: `insight_timer`, an Apple Health source name, `csv`, `demo`, ...
    public static let source = Attribute<String>("source", default: "manual")
    /// The IANA time zone it was lived in, where known.
    public static let timeZone = Attribute<String?>("timeZone")
    public static let note = Attribute<String?>("note")
    /// A key that makes re-imports idempotent: the same session imported twice has the same key.
    public static let key = Attribute<String>("key")
    /// The ``ImportRun``s that read the session: every import that met it, inserting, updating or finding it
    /// unchanged. Empty for sessions no import wrote (the demo history). A session stays while any of them does
    /// (docs/import-runs.md).
    public static let importRuns = ToMany<ImportRun>("importRuns", inverse: "sessions")
    /// The ``Practitioner`` whose session it is: required; the key is unique per practitioner.
    public static let practitioner = ToOne<Practitioner>("practitioner", inverse: "sessions", isRequired: true)

    public static let entity = EntityDescription(
        "Session",
        attributes: [start, duration, kind, source, timeZone, note, key],
        relationships: [importRuns, practitioner],
        // A practitioner's sessions are one range of (practitioner, start), and the practitioner leads every key, so
        // that the table can be partitioned by practitioner (docs/scaling.md).
        indexes: [IndexDescription([start]), IndexDescription([kind]), IndexDescription([duration]),
                  IndexDescription(names: [practitioner.name, start.name]),
                  IndexDescription(names: [practitioner.name, key.name], isUnique: true)])

    /// The schema of a practice log store: the practitioners, their sessions and the imports that read them.
    ///
    /// Version 1 kept one run per session (the last that wrote it) in a `Session.importRun` column; version 2
    /// keeps every run that read it in the link table `_ImportRun_sessions`; version 3 gives every session and run
    /// to a ``Practitioner``, those of older stores to ``Practitioner/defaultID``; version 4 gives practitioners a
    /// ``Practitioner/tokenHash`` for `stillpoint-server`, empty in older stores (no one has a token yet).
    public static let schema: Schema = {
        do {
            return try Schema([Practitioner.self, Session.self, ImportRun.self], versions: [
                SchemaVersion(1), SchemaVersion(2, step: linkImportRuns), SchemaVersion(3, step: assignDefaultPractitioner),
                SchemaVersion(4),
            ])
        } catch {
            preconditionFailure("the session schema is invalid: \(error)") // swiftlint:disable:this runtime_trap: a constant of this module, opened by every test
        }
    }()

    /// Version 2: the run each session named in version 1 becomes its first link, when that run is still there;
    /// the old column is emptied, so that nothing reads or keeps a reference to a run that is gone.
    @Sendable private static func linkImportRuns(_ migration: MigrationContext) throws {
        // A store made before import runs existed has no such column, and nothing to link.
        guard try migration.columns(of: entity.name).contains("importRun") else { return }
        try migration.execute("""
            INSERT INTO "\(ImportRun.sessionLinksEntityName)" ("source", "target")
            SELECT "importRun", "_id" FROM "Session" WHERE "importRun" IN (SELECT "_id" FROM "ImportRun")
            """)
        try migration.execute(#"UPDATE "Session" SET "importRun" = NULL WHERE "importRun" IS NOT NULL"#)
    }

    /// Version 3: the sessions and runs of a store written before practitioners existed are all one person's, the
    /// practitioner ``Practitioner/defaultID``, made when there is anything to give them.
    @Sendable private static func assignDefaultPractitioner(_ migration: MigrationContext) throws {
        let me = "'\(Practitioner.defaultID)'"
        try migration.execute("""
            INSERT INTO "Practitioner" ("id", "name") SELECT \(me), '' WHERE NOT EXISTS (SELECT 1 FROM "Practitioner" WHERE "id" = \(me))
            AND (EXISTS (SELECT 1 FROM "Session" WHERE "practitioner" IS NULL) OR EXISTS (SELECT 1 FROM "ImportRun" WHERE "practitioner" IS NULL))
            """)
        // Written again through the migration, which keeps PostgreSQL's folded copies of text columns in step.
        for row in try migration.rows(of: Practitioner.entity.name, columns: [Practitioner.id.name])
        where row[Practitioner.id.name] == .string(Practitioner.defaultID) {
            try migration.update(Practitioner.entity.name, id: row.id, [Practitioner.id.name: .string(Practitioner.defaultID)])
        }
        for table in [entity.name, ImportRun.entity.name] {
            try migration.execute("""
                UPDATE "\(table)" SET "practitioner" = (SELECT "_id" FROM "Practitioner" WHERE "id" = \(me)) WHERE "practitioner" IS NULL
                """)
        }
    }
}
