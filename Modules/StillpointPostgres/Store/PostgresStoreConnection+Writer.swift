import StillpointCore

/// The write side of PostgreSQL's store seam. Saves go through ``SaveTransaction/run(rows:hub:)`` over
/// ``PostgresSaveRows``, batches through ``BatchStatement/run(rows:author:origin:policy:hub:)`` over it, with the change-log entry and its `NOTIFY` in the same transaction; change sets are
/// published once the transaction commits.
///
/// ```swift
/// let outcome = try PostgresStoreConnection.writing(on: connection) { writer in try writer.save(transaction, hub: hub) }
/// ```
extension PostgresStoreConnection: StoreWriter {
    /// Runs `body` in one `READ COMMITTED` transaction (version checks and unique indexes guard concurrent
    /// writers), then what it left for after the commit; a cancelled statement throws the server's ``PostgresError``.
    package static func writing<T>(on connection: PostgresConnection, _ body: (PostgresStoreConnection) throws -> T) throws -> T {
        let actions = PostgresCommitActions()
        let value: T
        do {
            value = try connection.transaction { try body(PostgresStoreConnection(connection, commitActions: actions)) }
        } catch {
            actions.discard()
            throw error
        }
        actions.run()
        return value
    }

    package func save(_ transaction: SaveTransaction, hub: ChangeSetHub) throws -> SaveTransaction.Outcome {
        try PostgresError.mappingBrokenReferences {
            try transaction.run(rows: PostgresSaveRows(connection, commitActions: commitActions), hub: hub)
        }
    }

    package func run(_ batch: BatchStatement, author: String, origin: StoreOrigin, policy: MergePolicy, hub: ChangeSetHub) throws -> BatchResult {
        try PostgresError.mappingBrokenReferences {
            try batch.run(rows: PostgresSaveRows(connection, commitActions: commitActions), author: author, origin: origin, policy: policy, hub: hub)
        }
    }

    package func write(_ batch: ImportBatch, hub: ChangeSetHub) throws -> ImportBatch.Result {
        try PostgresError.mappingBrokenReferences {
            try batch.run(rows: PostgresSaveRows(connection, commitActions: commitActions), hub: hub)
        }
    }

    /// Deletes the change log's entries of the transactions below the watermark `sequence` (the position
    /// ``lastHistorySequence()`` gave), and remembers how far it went.
    package func purgeHistory(through sequence: Int64) throws {
        let through = min(sequence, try lastHistorySequence())
        guard through > 0 else { return }
        try connection.execute("DELETE FROM \(PostgresChangeLog.table) WHERE transaction_id < $1::xid8", [String(through)])
        try connection.execute("UPDATE \(PostgresSchema.purgeTable) SET through = greatest(through, $1::bigint) WHERE id = 1", [String(through)])
    }

    package func takeTurnWithOtherGroupedBatches() throws {
        try connection.execute("SELECT pg_advisory_xact_lock(\(Self.groupedBatchLock))")
    }

    /// A fixed key for `pg_advisory_xact_lock`, the same in every process, apart from the schema's.
    private static let groupedBatchLock: Int64 = 0x5374_696C_6C71
}
