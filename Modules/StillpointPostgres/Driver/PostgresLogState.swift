/// What the commit listener looks at every interval: which store it is, and the change log's last entry.
///
/// ```swift
/// let state = try PostgresLogState(on: connection)
/// state.store       // "16384/16402": the database's and the change log's object ids
/// state.lastEntry   // 41, or nil for an empty log
/// ```
struct PostgresLogState: Equatable {
    /// The object ids of the database and of its change log: a database dropped and made again under the same
    /// name, or a change log made again, gets new ones, so a watcher can tell the new store from the old one.
    var store: String
    /// The sequence number of the change log's last committed entry; `nil` when it holds none.
    var lastEntry: Int64?

    init(store: String, lastEntry: Int64?) {
        self.store = store
        self.lastEntry = lastEntry
    }

    init(on connection: PostgresConnection) throws(PostgresError) {
        let identity = try connection.execute("SELECT \(Self.identityExpression)", [PostgresChangeLog.table])
        store = identity.text(row: 0, column: 0) ?? ""
        // A store without a change log has no entry to look at (and is not the store followed).
        lastEntry = store.hasSuffix("/none")
            ? nil : try connection.execute("SELECT max(sequence) FROM \(PostgresChangeLog.table)").integer(row: 0, column: 0)
    }

    /// The state, the change log's position and the next transaction id, in one statement (one round trip: the
    /// listener looks before each ring), for a store known to have a change log. Without one (dropped since),
    /// the state says so, as ``init(on:)`` would.
    ///
    /// ```swift
    /// let (state, position, next) = try PostgresLogState.withPosition(on: connection)
    /// ```
    static func withPosition(on connection: PostgresConnection) throws(PostgresError)
        -> (state: PostgresLogState, position: UInt64, nextTransaction: UInt64) {
        let result: PostgresResult
        do {
            // Planned once per connection: planning it cost the server about as much as running it, at every look.
            result = try connection.executePrepared(lookQuery, [PostgresChangeLog.table])
        } catch where error.sqlState == undefinedTable {
            // The change log went away between two looks: the two statements tell what the store is now.
            let state = try PostgresLogState(on: connection)
            let (position, next) = try PostgresChangeLog.currentPositionAndNextTransaction(on: connection)
            return (state, position.watermark, next)
        }
        guard let store = result.text(row: 0, column: 0),
              let position = result.text(row: 0, column: 2).flatMap(UInt64.init),
              let next = result.text(row: 0, column: 3).flatMap(UInt64.init) else {
            throw PostgresError(message: "the server gave no snapshot horizon", target: connection.target.description)
        }
        return (PostgresLogState(store: store, lastEntry: result.integer(row: 0, column: 1)), position, next)
    }

    /// SQLSTATE `undefined_table`.
    private static let undefinedTable = "42P01"

    private static let identityExpression =
        "(SELECT oid FROM pg_database WHERE datname = current_database())::text || '/' || coalesce(to_regclass($1)::oid::text, 'none')"

    private static let lookQuery = """
        WITH snapshot AS (SELECT pg_current_snapshot() AS taken)
        SELECT \(identityExpression), (SELECT max(sequence) FROM \(PostgresChangeLog.table)),
            (\(PostgresChangeLog.positionExpression))::text, pg_snapshot_xmax(taken)::text
        FROM snapshot
        """
}
