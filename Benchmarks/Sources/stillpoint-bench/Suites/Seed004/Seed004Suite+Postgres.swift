import Foundation
import StillpointCore
import StillpointPostgres

/// The libpq side of seed 004 on the `postgres` store: the same work as the raw SQLite baselines, done the fastest
/// way libpq has, on a connection of its own to a fresh database of the same server: the write is one
/// `COPY ... FROM STDIN`, the fetch-delete one `SELECT` and one `DELETE ... WHERE "_id" = ANY($1)`, the batch delete
/// one `DELETE`. A row per round trip (a prepared statement executed per row) would measure the network's latency,
/// not the work: against it Stillpoint's multi-row saves looked 10 times faster than "raw" (0.11x).
///
/// The baseline's table is made by Stillpoint (an empty store opened and closed), so that both sides write the
/// same table, column for column and index for index. Stillpoint also fills each text attribute's three folded
/// copies (`title$fold1`...) and writes a change-log entry per save; the baseline writes the attributes only, as an
/// app without Stillpoint would, so those are part of what the ratio measures.
extension Seed004Suite {
    enum PostgresBaseline {
        /// A connection to a new database holding Stillpoint's empty `Item` table (not timed).
        static func open() throws -> RawPostgres {
            let uri = try PostgresServer.makeDatabase("libpq")
            try PersistentContainer(schema: Item.schema, postgres: uri).close()
            return try RawPostgres(uri: uri)
        }

        /// Items with uids `0..<n`: one `COPY` (text format) in one transaction. Titles (`Item 12`) hold no tab,
        /// newline or backslash, so they go as they are.
        static func insert(_ n: Int32, into raw: RawPostgres) throws {
            var uid: Int32 = 0
            try raw.copy(#"COPY "Item" ("uid", "title") FROM STDIN"#) { buffer in
                guard uid < n else { return false }
                buffer.append(contentsOf: String(uid).utf8)
                buffer.append(0x09)
                buffer.append(contentsOf: Item.title(uid).utf8)
                buffer.append(0x0A)
                uid += 1
                return true
            }
        }

        /// The write's variants, reported with `STILLPOINT_BENCH_PHASES=1` to show what the statement's shape costs
        /// (each on an emptied table): `raw_per_row_ms`, one prepared `INSERT` executed per row (the baseline
        /// before `COPY`), `raw_per_row_upsert_ms`, one unprepared `INSERT ... ON CONFLICT DO NOTHING
        /// RETURNING "_id"` per row with the folded copies (lowercased here), as PostgreSQL saves went before they
        /// sent many rows per statement, and `raw_multirow_ms`, one multi-row `INSERT` of up to 1,000 rows per
        /// statement.
        static func writeVariants(_ n: Int32, into raw: RawPostgres) throws -> [String: Double] {
            var variants: [String: Double] = [:]
            try raw.execute(#"TRUNCATE "Item""#)
            try raw.prepare("insert_item", #"INSERT INTO "Item" ("uid", "title") VALUES ($1, $2)"#)
            variants["raw_per_row_ms"] = try Stopwatch.seconds {
                try raw.execute("BEGIN")
                for uid in 0..<n {
                    try raw.executePrepared("insert_item", String(uid), Item.title(uid))
                }
                try raw.execute("COMMIT")
            } * 1_000
            try raw.execute("DEALLOCATE insert_item")
            try expect(raw, rows: n, after: "the per-row libpq write")
            try raw.execute(#"TRUNCATE "Item""#)
            let single = #"INSERT INTO "Item" ("uid", "title", "title$fold1", "title$fold2", "title$fold3") "#
                + #"VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING RETURNING "_id""#
            variants["raw_per_row_upsert_ms"] = try Stopwatch.seconds {
                try raw.execute("BEGIN")
                for uid in 0..<n {
                    let title = Item.title(uid)
                    let folded = title.lowercased()
                    guard try raw.execute(single, parameters: [String(uid), title, folded, title, folded]) == 1 else {
                        throw WrongRowCount(description: "an insert returned no id")
                    }
                }
                try raw.execute("COMMIT")
            } * 1_000
            try expect(raw, rows: n, after: "the per-row upsert libpq write")
            try raw.execute(#"TRUNCATE "Item""#)
            variants["raw_multirow_ms"] = try Stopwatch.seconds {
                try raw.execute("BEGIN")
                var start: Int32 = 0
                while start < n {
                    let end = min(start + 1_000, n)
                    var tuples: [String] = []
                    var parameters: [String] = []
                    for uid in start..<end {
                        tuples.append("($\(parameters.count + 1), $\(parameters.count + 2))")
                        parameters += [String(uid), Item.title(uid)]
                    }
                    try raw.execute(#"INSERT INTO "Item" ("uid", "title") VALUES "# + tuples.joined(separator: ", "), parameters: parameters)
                    start = end
                }
                try raw.execute("COMMIT")
            } * 1_000
            try expect(raw, rows: n, after: "the multi-row libpq write")
            return variants
        }

        /// A row as the baseline reads it: every column, as a fetch of objects does.
        private struct RawItem {
            let id: Int64
            let version: Int64
            let uid: Int32
            let title: String
        }

        /// Reads every row of the table with a SELECT, then deletes them by id in one statement, the ids sent as one
        /// array parameter (`{1,2,...}`).
        static func fetchDelete(_ raw: RawPostgres) throws {
            var rows: [RawItem] = []
            try raw.query(#"SELECT "_id", "_version", "uid", "title" FROM "Item""#) { column in
                rows.append(RawItem(id: strtoll(column(0), nil, 10), version: strtoll(column(1), nil, 10),
                                    uid: Int32(truncatingIfNeeded: strtoll(column(2), nil, 10)), title: String(cString: column(3))))
            }
            var ids = "{"
            for (index, row) in rows.enumerated() {
                if index > 0 { ids.append(",") }
                ids.append(String(row.id))
            }
            ids.append("}")
            let deleted = try raw.changeRows(#"DELETE FROM "Item" WHERE "_id" = ANY($1::bigint[])"#, parameters: [ids])
            guard deleted == rows.count else { throw WrongRowCount(description: "the delete removed \(deleted) rows, not \(rows.count)") }
        }

        /// The batch-delete baseline: one prepared DELETE with the same condition, in its own transaction.
        static func delete(below n: Int32, in raw: RawPostgres) throws {
            try raw.prepare("delete_below", #"DELETE FROM "Item" WHERE "uid" < $1"#)
            try raw.executePrepared("delete_below", String(n))
            try raw.execute("DEALLOCATE delete_below")
        }

        /// `DELETE ... RETURNING "_id"`, reading every id, as Stillpoint's batch delete does on PostgreSQL (reported
        /// with `STILLPOINT_BENCH_PHASES=1`).
        static func deleteReturning(below n: Int32, in raw: RawPostgres) throws {
            try raw.prepare("delete_returning", #"DELETE FROM "Item" WHERE "uid" < $1 RETURNING "_id""#)
            var ids: [Int64] = []
            try raw.executePrepared("delete_returning", String(n)) { column in ids.append(strtoll(column(0), nil, 10)) }
            try raw.execute("DEALLOCATE delete_returning")
            guard ids.count == Int(n) else { throw WrongRowCount(description: "RETURNING gave \(ids.count) ids, not \(n)") }
        }

        static func expect(_ raw: RawPostgres, rows expected: Int32, after step: String) throws {
            let count = try raw.integer(#"SELECT COUNT(*) FROM "Item""#)
            guard count == expected else { throw WrongRowCount(description: "\(step) left \(count) rows, not \(expected)") }
        }
    }
}
