import Foundation

extension PractitionersSuite {
    /// The PostgreSQL peer: one practitioner's report as one SQL statement, as an expert would write it (gaps and
    /// islands for the streaks, `percentile_cont` for the median), prepared once per connection and run over the
    /// rows the `COPY` baseline loaded into a table Stillpoint made (its `(practitioner, start)` index included),
    /// in the same server as the PostgreSQL store.
    ///
    /// ```swift
    /// let peer = try SQLPeer(uri: copyDatabase)
    /// let (seconds, values) = try peer.report("p00042")
    /// ```
    final class SQLPeer {
        private let raw: RawPostgres

        init(uri: String) throws {
            raw = try RawPostgres(uri: uri)
            try raw.prepare("report", Self.sql(asOf: PractitionerData.asOf.timeIntervalSince1970))
        }

        /// The report of practitioner `id`, its numbers by statistic as ``ReportSuite/numbers(_:)`` flattens
        /// Stillpoint's, and the seconds the statement took.
        func report(_ id: String) throws -> (seconds: Double, values: [String: [Double]]) {
            var values: [String: [Double]] = [:]
            let seconds = try Stopwatch.seconds {
                try raw.executePrepared("report", id) { column in
                    func numbers(_ index: Int32) -> [Double] {
                        String(cString: column(index)).split(separator: " ").compactMap { Double($0) }
                    }
                    for (index, name) in ["session_count", "total_time", "average_session_time", "median_session_time",
                                          "longest_session", "active_days", "current_streak", "longest_streak",
                                          "sessions_by_weekday", "sessions_by_hour"].enumerated() {
                        values[name] = numbers(Int32(index))
                    }
                }
            }
            return (seconds, values)
        }

        /// Inserts one session of practitioner `id`, as the app would (one statement, committed).
        func insert(_ id: String, start: Double, duration: Double, zone: String, key: String) throws {
            _ = try raw.changeRows("""
                INSERT INTO "Session" ("practitioner", "start", "duration", "kind", "source", "timeZone", "key")
                SELECT "_id", $2::double precision, $3::double precision, 'meditation', 'csv', $4, $5 FROM "Practitioner" WHERE "id" = $1
                """, parameters: [id, String(start), String(duration), zone, key])
        }

        /// Removes the sessions ``insert(_:start:duration:zone:key:)`` added, by their keys.
        func remove(keys: [String]) throws {
            for key in keys {
                _ = try raw.changeRows(#"DELETE FROM "Session" WHERE "key" = $1"#, parameters: [key])
            }
        }

        /// The statement: the practitioner's sessions placed on local days once, then the totals, the days and their
        /// islands, and the weekday and hour rhythm, each list as numbers separated by spaces.
        static func sql(asOf: Double) -> String {
            """
            WITH placed AS (
                SELECT duration, local, local::date AS day
                FROM (SELECT duration, to_timestamp(start) AT TIME ZONE coalesce("timeZone", 'UTC') AS local
                      FROM "Session"
                      WHERE "practitioner" = (SELECT "_id" FROM "Practitioner" WHERE "id" = $1)
                        AND duration > 0 AND start <= \(asOf)) sessions),
            days AS (SELECT DISTINCT day FROM placed),
            islands AS (
                SELECT max(day) AS last, count(*) AS length
                FROM (SELECT day, day - (row_number() OVER (ORDER BY day))::integer AS island FROM days) numbered
                GROUP BY island),
            today AS (SELECT (to_timestamp(\(asOf)) AT TIME ZONE 'UTC')::date AS today),
            totals AS (
                SELECT count(*) AS n, coalesce(sum(duration), 0) AS total, avg(duration) AS average,
                       percentile_cont(0.5) WITHIN GROUP (ORDER BY duration) AS median, max(duration) AS longest
                FROM placed)
            SELECT n, total, average, median, longest,
                (SELECT count(*) FROM days),
                (SELECT coalesce(max(length), 0) FROM islands, today WHERE last >= today - 1),
                (SELECT coalesce(max(length), 0) FROM islands),
                (SELECT string_agg(coalesce(c, 0) || ' ' || coalesce(t, 0), ' ' ORDER BY w)
                 FROM generate_series(1, 7) w
                 LEFT JOIN (SELECT extract(isodow FROM day)::integer AS weekday, count(*) AS c, sum(duration) AS t
                            FROM placed GROUP BY 1) by_weekday ON weekday = w),
                (SELECT string_agg(coalesce(c, 0) || ' ' || coalesce(t, 0), ' ' ORDER BY h)
                 FROM generate_series(0, 23) h
                 LEFT JOIN (SELECT extract(hour FROM local)::integer AS hour, count(*) AS c, sum(duration) AS t
                            FROM placed GROUP BY 1) by_hour ON hour = h)
            FROM totals
            """
        }
    }
}
