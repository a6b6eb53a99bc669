/// What a write transaction offers above the seam, at the level of change sets: a context's save (permanent
/// IDs, version-checked updates and deletes under the merge policies, uniqueness clashes, the change-log
/// entry), batch statements that report the rows they changed, import batches, and purging the history.
///
/// Each records its change set in the change log and publishes it on `hub` once the transaction commits.
///
/// ```swift
/// let outcome = try store.writing(interruptedBy: flag) { writer in try writer.save(transaction, hub: hub) }
/// ```
package protocol StoreWriter: StoreReader {
    /// Writes a save, resolving conflicts by its merge policies; throws, changing nothing, when a conflict falls
    /// under the `error` policy or an object breaks a uniqueness constraint.
    func save(_ transaction: SaveTransaction, hub: ChangeSetHub) throws -> SaveTransaction.Outcome

    /// Runs a batch delete, update or insert without loading objects; `policy` decides what an inserted row
    /// whose unique key is taken does, as it does for a save.
    func run(_ batch: BatchStatement, author: String, origin: StoreOrigin, policy: MergePolicy, hub: ChangeSetHub) throws -> BatchResult

    /// Writes one batch of an import: new rows inserted, changed rows updated, unchanged rows left alone.
    func write(_ batch: ImportBatch, hub: ChangeSetHub) throws -> ImportBatch.Result

    /// Deletes the change log up to and including `sequence`, and remembers how far it went.
    func purgeHistory(through sequence: Int64) throws

    /// Makes the rest of this transaction take turns with every other transaction that asks the same, in any
    /// process, so that a grouped batch's later statements see what an earlier grouped batch committed (a run's
    /// removal counts the runs that still hold a session). SQLite's write transactions already take turns;
    /// PostgreSQL's `READ COMMITTED` ones wait on a transaction advisory lock.
    func takeTurnWithOtherGroupedBatches() throws
}
