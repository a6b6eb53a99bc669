import Foundation
import StillpointCore
import StillpointPostgres

/// The import suite's baseline on the `postgres` store: the same rows sent with `COPY ... FROM STDIN` through
/// libpq, into a table Stillpoint made (unique key index included) in a fresh database of the same server.
extension ImportSuite {
    /// One `COPY` and one transaction per batch of ``batchSize`` rows, the transactions Stillpoint's import
    /// commits; then, after the peak memory is read, the table is emptied and the same rows go in again as one
    /// `COPY` of all N (`single_copy_ms`), the fastest way PostgreSQL has. Making the database is not timed.
    static func copyBaseline(_ benchmarkCase: BenchmarkCase) throws -> Sample {
        let n = benchmarkCase.n
        let uri = try PostgresServer.makeDatabase("libpq")
        try PersistentContainer(schema: SessionBench.Record.schema, postgres: uri).close()
        let raw = try RawPostgres(uri: uri)
        let server = PostgresServer.backendCPU()
        let cpu = ResourceUsage.processCPUSeconds()
        let seconds = try Stopwatch.seconds {
            var start = 0
            while start < n {
                let end = min(start + batchSize, n)
                try raw.execute("BEGIN")
                try copy(start..<end, into: raw)
                try raw.execute("COMMIT")
                start = end
            }
        }
        let cpuSeconds = ResourceUsage.processCPUSeconds() - cpu
        let peak = ResourceUsage.peakResidentMegabytes()
        let serverSeconds = PostgresServer.serverCPUSeconds(since: server)
        let count = try raw.integer(#"SELECT COUNT(*) FROM "LoggedSession""#)
        guard count == n else { throw SessionBench.Failure("the libpq COPY left \(count) rows, not \(n)") }

        try raw.execute(#"TRUNCATE "LoggedSession""#)
        let single = try Stopwatch.seconds { try copy(0..<n, into: raw) }
        let again = try raw.integer(#"SELECT COUNT(*) FROM "LoggedSession""#)
        guard again == n else { throw SessionBench.Failure("the single libpq COPY left \(again) rows, not \(n)") }
        return Sample(seconds: seconds, metrics: [
            "peak_rss_mb": peak ?? .nan, "cpu_ms": cpuSeconds * 1_000, "single_copy_ms": single * 1_000,
            "server_cpu_ms": serverSeconds * 1_000,
        ])
    }

    /// Rows `range` in one `COPY` (text format). The generated values hold no tab, newline or backslash, so they
    /// go as they are.
    private static func copy(_ range: Range<Int>, into raw: RawPostgres) throws {
        var index = range.lowerBound
        try raw.copy(#"COPY "LoggedSession" ("start", "duration", "kind", "key") FROM STDIN"#) { buffer in
            guard index < range.upperBound else { return false }
            let row = SessionBench.row(index)
            buffer.append(contentsOf: String(row.start).utf8)
            buffer.append(0x09)
            buffer.append(contentsOf: String(row.duration).utf8)
            buffer.append(0x09)
            buffer.append(contentsOf: row.kind.utf8)
            buffer.append(0x09)
            buffer.append(contentsOf: row.key.utf8)
            buffer.append(0x0A)
            index += 1
            return true
        }
    }
}
