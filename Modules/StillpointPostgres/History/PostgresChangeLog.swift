/// The PostgreSQL store's change log: one row per save, read by other processes in commit order with no gap.
///
/// A `bigserial` is handed out when a row is inserted, not when its transaction commits, so sequence numbers
/// commit out of order: a reader that remembered "the last sequence I read" would skip a row whose transaction
/// was still running when a later-numbered one committed. Instead each row records its transaction's id
/// (`pg_current_xact_id()`), and a reader remembers a *watermark*: the oldest transaction of this database still
/// running when it last read (``currentPosition(on:)``). Every transaction below the watermark has ended, so its rows (if it committed)
/// are all visible; each read returns the rows of the transactions that ended between the last watermark and the
/// new one, and moves the watermark up. Each row is read exactly once, and a row never comes before a row whose
/// transaction committed earlier and touched the same data (that one was waited for, so it ended first).
/// A transaction that stays open holds later rows back; it never makes them skipped.
///
/// Writers ring `NOTIFY` on ``channel`` in the same transaction, so that readers wake at commit instead of
/// polling; the notification is a doorbell only (its payload is limited to 8,000 bytes), the rows are the record.
///
/// ```swift
/// try connection.execute(PostgresChangeLog.createTable)
/// var position = try PostgresChangeLog.currentPosition(on: reader)
/// // ... another process commits a save ...
/// let (entries, next) = try PostgresChangeLog.entries(after: position, on: reader)
/// position = next
/// ```
package enum PostgresChangeLog {
    package static let table = "_stillpoint_history"
    /// The `LISTEN` channel writers notify on commit.
    package static let channel = "stillpoint_history"

    package static let createTable = """
        CREATE TABLE IF NOT EXISTS \(table) (
            sequence bigserial PRIMARY KEY,
            transaction_id xid8 NOT NULL DEFAULT pg_current_xact_id(),
            author text NOT NULL,
            timestamp double precision NOT NULL,
            changes text NOT NULL,
            origin text NOT NULL DEFAULT '');
        CREATE INDEX IF NOT EXISTS \(transactionIndex) ON \(table) (transaction_id);
        """

    /// The index that finds the rows of the transactions a read covers.
    package static let transactionIndex = "\(table)_transaction"

    /// One save, as the log holds it.
    package struct Entry: Sendable, Equatable {
        package var sequence: Int64
        package var author: String
        package var timestamp: Double
        package var changes: String
        package var origin: String
    }

    /// Where a reader is: every row of a transaction older than `watermark` has been read.
    package struct Position: Sendable, Hashable, Comparable {
        /// A transaction id (`xid8`), as PostgreSQL prints it.
        package var watermark: UInt64

        package static func < (lhs: Self, rhs: Self) -> Bool { lhs.watermark < rhs.watermark }
    }

    /// Appends a save's row inside the caller's transaction, rings the doorbell at its commit, and returns the
    /// row's sequence number.
    @discardableResult
    package static func record(author: String, timestamp: Double, changes: String, origin: String,
                               on connection: PostgresConnection) throws(PostgresError) -> Int64 {
        let result = try connection.execute(
            "INSERT INTO \(table) (author, timestamp, changes, origin) VALUES ($1, $2, $3, $4) RETURNING sequence",
            [author, String(timestamp), changes, origin])
        try connection.execute("SELECT pg_notify($1, '')", [channel])
        guard let sequence = result.integer(row: 0, column: 0) else {
            throw PostgresError(message: "the change log returned no sequence number", target: connection.target.description)
        }
        return sequence
    }

    /// The position of a reader that has read everything committed so far: the oldest transaction still running
    /// in this database when the snapshot was taken, else the snapshot's first unassigned id.
    ///
    /// Transactions of other databases on the server cannot write this log, so they do not hold it back: a
    /// transaction the snapshot saw running counts unless `pg_stat_activity` shows it running in another
    /// database (one that ended meanwhile, or whose database cannot be seen, counts, which only delays).
    package static func currentPosition(on connection: PostgresConnection) throws(PostgresError) -> Position {
        try currentPositionAndNextTransaction(on: connection).position
    }

    /// ``currentPosition(on:)`` and the first transaction id not yet handed out, from one snapshot, in one
    /// statement (one round trip: the commit listener asks before each ring).
    package static func currentPositionAndNextTransaction(on connection: PostgresConnection) throws(PostgresError)
        -> (position: Position, nextTransaction: UInt64) {
        // Asked once or twice per read (a report's digest): parsed and planned once per connection.
        let result = try connection.executePrepared(currentPositionQuery)
        guard let text = result.text(row: 0, column: 0), let watermark = UInt64(text),
              let next = result.text(row: 0, column: 1).flatMap(UInt64.init) else {
            throw PostgresError(message: "the server gave no snapshot horizon", target: connection.target.description)
        }
        return (Position(watermark: watermark), next)
    }

    /// The oldest transaction of this database running in the snapshot `taken`, else the snapshot's first
    /// unassigned id (an `xid8` expression over a column `taken`).
    static let positionExpression = """
        least(pg_snapshot_xmax(taken), (
            SELECT min(running) FROM pg_snapshot_xip(taken) AS running
            WHERE NOT EXISTS (
                SELECT 1 FROM pg_stat_activity AS activity
                WHERE activity.backend_xid = xid(running)
                  AND activity.datid IS DISTINCT FROM (SELECT oid FROM pg_database WHERE datname = current_database()))
        ))
        """

    private static let currentPositionQuery = """
        WITH snapshot AS (SELECT pg_current_snapshot() AS taken)
        SELECT (\(positionExpression))::text, pg_snapshot_xmax(taken)::text FROM snapshot
        """

    /// The horizon and the rows below it in one statement, so one snapshot: a transaction below the horizon
    /// was not running in it, so its rows (if it committed) are all visible to the same statement.
    ///
    /// Its last column says whether the horizon was held back by a transaction that has ended since the snapshot
    /// (`pg_xact_status` reads the commit log now, not as of the snapshot): one of another database, which
    /// `pg_stat_activity` no longer shows, or one of this database that committed after it. A new snapshot moves on.
    private static let entriesQuery = """
        WITH snapshot AS (SELECT pg_current_snapshot() AS taken),
             horizon AS (SELECT greatest($1::xid8, \(positionExpression)) AS next, pg_snapshot_xmax(taken) AS xmax
                         FROM snapshot)
        SELECT horizon.next::text, entry.sequence, entry.author, entry.timestamp, entry.changes, entry.origin,
            CASE WHEN horizon.next < horizon.xmax THEN pg_xact_status(horizon.next) IS DISTINCT FROM 'in progress'
                 ELSE false END
        FROM horizon LEFT JOIN \(table) AS entry
            ON entry.transaction_id >= $1::xid8 AND entry.transaction_id < horizon.next
        ORDER BY entry.sequence
        """

    /// A read of the entries after a position.
    package struct Read {
        package var entries: [Entry]
        package var next: Position
        /// A transaction that ended after the read's snapshot held it back: a read with a new snapshot (in a new
        /// transaction, since a store's reads are repeatable-read ones) gets further.
        package var heldBackByEndedTransaction: Bool
    }

    /// The rows of every transaction that ended since `position`, in sequence order, and the position after them:
    /// one statement, one round trip (the watcher reads this at each ring).
    ///
    /// The read says when a transaction that ended after its snapshot held it back: a caller that reads once (a
    /// report catching up after a commit it was told of) would otherwise miss that commit until the next one.
    package static func entries(after position: Position, on connection: PostgresConnection) throws(PostgresError) -> Read {
        // Read at every ring and every refresh: planning its four copies of the position expression cost the
        // server about 2 ms a read (`EXPLAIN ANALYZE`), so it is parsed and planned once per connection.
        let rows = try connection.executePrepared(entriesQuery, [String(position.watermark)])
        guard rows.rowCount > 0, let next = rows.text(row: 0, column: 0).flatMap(UInt64.init) else {
            throw PostgresError(message: "the server gave no snapshot horizon", target: connection.target.description)
        }
        // No entry: one row of nulls beside the horizon (the join found nothing).
        let entries = (0..<rows.rowCount).compactMap { row -> Entry? in
            guard let sequence = rows.integer(row: row, column: 1) else { return nil }
            return Entry(sequence: sequence, author: rows.text(row: row, column: 2) ?? "",
                         timestamp: rows.double(row: row, column: 3) ?? 0, changes: rows.text(row: row, column: 4) ?? "",
                         origin: rows.text(row: row, column: 5) ?? "")
        }
        return Read(entries: entries, next: max(position, Position(watermark: next)),
                    heldBackByEndedTransaction: rows.text(row: 0, column: 6) == "t")
    }
}
