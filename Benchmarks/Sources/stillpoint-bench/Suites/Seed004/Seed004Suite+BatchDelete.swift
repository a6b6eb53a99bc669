import Foundation
import GRDBSQLite
import StillpointCore
import StillpointSQLite

/// Seed 004's batch delete, straight SQL rather than object by object: N of 2N stored `Item`s deleted by a condition with
/// `context.batchDelete`, against a raw `DELETE FROM "Item" WHERE "uid" < ?` with the same condition in the
/// same run.
///
/// The table holds twice as many rows as are deleted, so that the condition decides which rows go: a `DELETE`
/// with no condition lets SQLite drop whole pages and would be no fair baseline. `uid` has no index on either
/// side, so both scan the table. On the `postgres` store the baseline is the same DELETE through libpq.
extension Seed004Suite {
    static func batchDelete(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        let n = Int32(benchmarkCase.n)
        let stored = 2 * n

        let baseline: Double
        var baselineCPU = 0.0
        var rawVariants: [String: Double] = [:]
        if benchmarkCase.store == .postgres {
            let raw = try PostgresBaseline.open()
            try PostgresBaseline.insert(stored, into: raw)
            let cpu = ResourceUsage.processCPUSeconds()
            baseline = try Stopwatch.seconds { try PostgresBaseline.delete(below: n, in: raw) }
            baselineCPU = ResourceUsage.processCPUSeconds() - cpu
            try PostgresBaseline.expect(raw, rows: stored - n, after: "the libpq batch delete")
            if Phases.reported {
                // Stillpoint's batch delete on PostgreSQL reads the deleted ids back with RETURNING.
                try raw.execute(#"TRUNCATE "Item""#)
                try PostgresBaseline.insert(stored, into: raw)
                rawVariants["raw_returning_ms"] = try Stopwatch.seconds { try PostgresBaseline.deleteReturning(below: n, in: raw) } * 1_000
            }
        } else {
            let raw = try RawSQLite(benchmarkCase.store, in: benchmarkCase.directory)
            try raw.createItemTable()
            try Seed004Suite.rawInsert(stored, into: raw)
            let cpu = ResourceUsage.processCPUSeconds()
            baseline = try Stopwatch.seconds { try BatchDeleteBaseline.delete(below: n, in: raw) }
            baselineCPU = ResourceUsage.processCPUSeconds() - cpu
            try Seed004Suite.expect(raw, rows: stored - n, after: "the raw batch delete")
            if Phases.reported {
                // The two designs measured and dropped, for comparison: `DELETE ... RETURNING`, and a `SELECT`
                // of the ids followed by the plain `DELETE`, each on 2N rows again.
                try Seed004Suite.rawInsert(n, into: raw)
                rawVariants["raw_returning_ms"] = try Stopwatch.seconds { try BatchDeleteBaseline.deleteReturning(below: n, in: raw) } * 1_000
                try Seed004Suite.rawInsert(n, into: raw)
                rawVariants["raw_select_then_delete_ms"] = try Stopwatch.seconds { try BatchDeleteBaseline.selectThenDelete(below: n, in: raw) } * 1_000
                try Seed004Suite.expect(raw, rows: stored - n, after: "the raw variants")
            }
        }

        let container = try benchmarkCase.store.container(schema: Item.schema, in: benchmarkCase.directory)
        try await Seed004Suite.storeItems(stored, in: container)
        try await benchmarkCase.settle()
        // Parsed before the clock starts, as an app parses a predicate once.
        let request = FetchRequest(Item.self, predicate: try FetchPredicate("uid < %@", n))
        let context = container.newBackgroundContext(name: "batch-delete")
        var phases = Phases()
        var deleted = 0
        let cpu = ResourceUsage.processCPUSeconds()
        let seconds = try await Stopwatch.seconds {
            deleted = try await context.batchDelete(request).count
        }
        phases.cpu(stillpoint: ResourceUsage.processCPUSeconds() - cpu, baseline: baselineCPU)
        guard deleted == Int(n) else {
            throw WrongRowCount(description: "the batch delete reported \(deleted) rows, not \(n)")
        }
        let left = try await context.perform { try $0.count(for: FetchRequest(Item.self)) }
        guard left == Int(stored - n) else {
            throw WrongRowCount(description: "the batch delete left \(left) rows, not \(stored - n)")
        }
        if benchmarkCase.store == .postgres { try container.close() }
        return Sample(seconds: seconds, baselineSeconds: baseline, metrics: phases.metrics.merging(rawVariants) { $1 })
    }
}

/// The raw SQLite side of the batch-delete workload.
private enum BatchDeleteBaseline {
    /// The measured baseline: one prepared DELETE with the same condition, in its own transaction.
    static func delete(below n: Int32, in raw: RawSQLite) throws {
        let sql = #"DELETE FROM "Item" WHERE "uid" < ?"#
        let statement = try raw.prepare(sql)
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_int64(statement, 1, Int64(n))
        try raw.stepDone(statement, sql)
    }

    /// `DELETE ... RETURNING "_id"`, reading every id, in one transaction.
    static func deleteReturning(below n: Int32, in raw: RawSQLite) throws {
        let sql = #"DELETE FROM "Item" WHERE "uid" < ? RETURNING "_id""#
        try raw.execute("BEGIN")
        let statement = try raw.prepare(sql)
        defer { sqlite3_finalize(statement) }
        sqlite3_bind_int64(statement, 1, Int64(n))
        var ids: [Int64] = []
        try readIDs(statement, sql, raw, into: &ids)
        try raw.execute("COMMIT")
        guard ids.count == Int(n) else { throw Seed004Suite.WrongRowCount(description: "RETURNING gave \(ids.count) ids, not \(n)") }
    }

    /// `SELECT "_id"` with the condition, then the plain `DELETE` with it, in one transaction.
    static func selectThenDelete(below n: Int32, in raw: RawSQLite) throws {
        let select = #"SELECT "_id" FROM "Item" WHERE "uid" < ?"#
        try raw.execute("BEGIN")
        let query = try raw.prepare(select)
        defer { sqlite3_finalize(query) }
        sqlite3_bind_int64(query, 1, Int64(n))
        var ids: [Int64] = []
        try readIDs(query, select, raw, into: &ids)
        try delete(below: n, in: raw)
        try raw.execute("COMMIT")
        guard ids.count == Int(n) else { throw Seed004Suite.WrongRowCount(description: "SELECT gave \(ids.count) ids, not \(n)") }
    }

    private static func readIDs(_ statement: OpaquePointer, _ sql: String, _ raw: RawSQLite, into ids: inout [Int64]) throws {
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw raw.failure(sql) }
            ids.append(sqlite3_column_int64(statement, 0))
        }
    }
}
