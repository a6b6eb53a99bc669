import Foundation

/// One batch of an ``ImportOperation``, written in one write transaction without managed objects: new rows go
/// in through a prepared INSERT, changed rows through a prepared UPDATE, and the change log and change set are
/// recorded as a save's would be, so that contexts merge the batch like any save.
///
/// When the key is a uniqueness constraint of the table, each row is first offered to
/// `INSERT ... ON CONFLICT (key) DO NOTHING`: a new record costs what a raw insert costs, with no look-up.
/// The rows that meet an existing key (and those that cannot be inserted alone, lacking a required value) are
/// then looked up together, with one `key IN (...)` query, and updated where their values differ. Without such
/// a constraint, every row is looked up that way first. Either way, the look-up runs inside the write
/// transaction, so what it finds cannot change before the batch is written: there is nothing to conflict with.
///
/// ```swift
/// let batch = ImportBatch(plan: plan, rows: rows, author: "import", origin: origin)
/// let result = try store.writing(interruptedBy: nil) { writer in try writer.write(batch, hub: hub) }
/// print(result.inserted, result.updated, result.unchanged, result.changeSet?.sequence ?? 0)
/// ```
package struct ImportBatch: Sendable {
    /// What a batch did.
    package struct Result: Sendable {
        package var inserted = 0
        package var updated = 0
        package var unchanged = 0
        package var skipped: [ImportRecordIssue] = []
        /// Whether the rows that met existing keys were looked up (at most once per batch).
        package var lookedUp = false
        /// `nil` when nothing was written.
        package var changeSet: ChangeSet?
        /// Every record the batch stored or found unchanged (not those it skipped), in no set order, for the links
        /// an import adds to each row it met (``ImportOperation/Link``).
        package var met: [MetRow] = []

        package init() {}
    }

    /// A row the batch met: its id, what the batch did to it, and the object its record asks it to be linked to.
    package struct MetRow: Sendable, Hashable {
        package enum Change: Sendable, Hashable {
            case inserted, updated, unchanged
        }

        package var rowID: Int64
        package var change: Change
        package var link: ObjectID?
    }

    package let plan: ImportPlan
    package let rows: [ImportPlan.Row]
    package let author: String
    package let origin: StoreOrigin

    package var entity: EntityDescription { plan.entity }
}
