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

    init(on connection: PostgresConnection) throws(PostgresError) {
        let identity = try connection.execute(
            "SELECT (SELECT oid FROM pg_database WHERE datname = current_database())::text || '/' "
                + "|| coalesce(to_regclass($1)::oid::text, 'none')", [PostgresChangeLog.table])
        store = identity.text(row: 0, column: 0) ?? ""
        // A store without a change log has no entry to look at (and is not the store followed).
        lastEntry = store.hasSuffix("/none")
            ? nil : try connection.execute("SELECT max(sequence) FROM \(PostgresChangeLog.table)").integer(row: 0, column: 0)
    }
}
