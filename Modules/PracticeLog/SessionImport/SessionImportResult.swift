import Foundation
import StillpointCore

/// How a ``SessionImport`` went: its run, what it saved and skipped, where the file broke off, and the earlier
/// runs of the file it replaced.
public struct SessionImportResult: Sendable {
    /// One practitioner's run of a bulk load (a practitioner column), and what it did.
    public struct PractitionerRun: Sendable, Equatable {
        public var practitioner: String
        public var run: Int64
        /// What the run recorded: its sessions inserted, updated and unchanged (the rows skipped are in the
        /// result's ``SessionImportResult/summary`` only, since a skipped row may name no practitioner).
        public var summary: ImportSummary
    }

    /// The run's id in the store's import runs; with a practitioner column, the first practitioner's run (0 when
    /// the file names none: ``runs`` has them all).
    public var run: Int64
    /// With a practitioner column, each practitioner's run, in the order the file first names them; empty otherwise.
    public var runs: [PractitionerRun] = []
    public var summary: ImportSummary
    /// How the import operation ended: finished, failed (with the error), or cancelled.
    public var outcome: ContextOperationOutcome<ImportSummary>?
    /// Where the file broke off (a quote never closed, a record over 1 MiB, an export cut short), if it did: the
    /// sessions before that line are saved.
    public var stop: ImportDataError?
    /// Rows left out as not practice, by type (`Running: 5`).
    public var notPractice: [String: Int]
    /// The home time zones, by practitioner id, that read the file's times without a zone (no zone was given to
    /// the import); empty when none did.
    public var homeTimeZones: [String: TimeZone] = [:]
    /// The earlier runs of the same file that this one replaced.
    public var replacedRuns: [ImportRuns.Listing]
    /// The sessions only the replaced runs had read, removed with them.
    public var removedByReplacing: Int

    /// Whether the whole file was read and the operation finished.
    public var isComplete: Bool { outcome?.isFinished == true && stop == nil }

    /// Whether any session was kept from the file: new, updated or already there.
    public var keptSessions: Bool { summary.inserted + summary.updated + summary.unchanged > 0 }
}
