import ConsistencyStatistics
import Foundation
import GRDBSQLite
import PracticeLog
import StillpointStatistics
import StreakStatistics
import Synchronization

extension ReportSuite {
    /// The baseline of the `report` suite: every statistic of the manifest computed by hand over the raw SQLite
    /// C API, with the SQL one would write for that number.
    ///
    /// - Counts, sums, averages and maxima are one aggregate query each (`COUNT(*)`, `SUM`, `AVG`, `MAX`); `by_kind`
    ///   is two `GROUP BY` queries; the median walks `GROUP BY duration ORDER BY duration` after a count, and stops
    ///   at the middle.
    /// - Statistics of local days and hours read `start` (and `duration` where they sum it) and `timeZone` with a
    ///   cursor, resolve each zone name once, and place each session with `DayBoundary`; the streaks and the
    ///   consistency score come from the pure calculators (`StreakCalculator`, `ConsistencyScore`) over the sorted
    ///   active days.
    /// - Each statistic runs on its own, in a read transaction, as the report's operations do; nothing is shared
    ///   between statistics (no scan serves two of them), so both sides do the same statistics one by one.
    ///
    /// The qualifying sessions, today, the day rules and each statistic's parameters come from the prepared
    /// manifest entries, so the two sides cannot disagree on what they compute; a parameter the baseline does not
    /// implement (`maximum_duration`) is an error, not a silent difference.
    enum RawStatistics {
        /// One statistic, ready to run on a connection: its numbers, flattened as ``ReportSuite/numbers(_:)`` does.
        struct Job: Sendable {
            let name: String
            let compute: @Sendable (RawSQLite) throws -> [Double]
        }

        // MARK: Running

        /// Runs `jobs` in order on `threads` threads, each with a connection of its own, each thread taking the
        /// next job as it finishes one, as the report's queue does with its operations.
        static func run(_ jobs: [Job], threads: Int, store: TemporaryDirectory) async throws -> [String: [Double]] {
            let board = Board(jobs: jobs, threads: threads)
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                for number in 0..<threads {
                    let thread = Thread {
                        board.work(on: store)
                        if board.threadFinished() { continuation.resume() }
                    }
                    thread.name = "stillpoint-bench.raw-report.\(number)"
                    thread.start()
                }
            }
            return try board.results()
        }

        /// Runs one job in a read transaction.
        static func runInTransaction(_ job: Job, on raw: RawSQLite) throws -> [Double] {
            try raw.execute("BEGIN")
            do {
                let values = try job.compute(raw)
                try raw.execute("COMMIT")
                return values
            } catch {
                try? raw.execute("ROLLBACK")
                throw error
            }
        }

        private final class Board: Sendable {
            let jobs: [Job]
            private let next = Atomic<Int>(0)
            private let running: Atomic<Int>
            private let outcomes = Mutex<[String: Result<[Double], any Error>]>([:])

            init(jobs: [Job], threads: Int) {
                self.jobs = jobs
                self.running = Atomic(threads)
            }

            func work(on store: TemporaryDirectory) {
                do {
                    let raw = try RawSQLite(.file, in: store)
                    while true {
                        let index = next.add(1, ordering: .relaxed).oldValue
                        guard index < jobs.count else { return }
                        let job = jobs[index]
                        let outcome = Result { try RawStatistics.runInTransaction(job, on: raw) }
                        outcomes.withLock { $0[job.name] = outcome }
                    }
                } catch {
                    outcomes.withLock { $0["(connection)"] = .failure(error) }
                }
            }

            /// Whether the calling thread was the last one working.
            func threadFinished() -> Bool {
                running.subtract(1, ordering: .acquiringAndReleasing).newValue == 0
            }

            func results() throws -> [String: [Double]] {
                try outcomes.withLock { outcomes in
                    if case .failure(let error)? = outcomes["(connection)"] { throw error }
                    var values: [String: [Double]] = [:]
                    for job in jobs {
                        guard let outcome = outcomes[job.name] else {
                            throw SessionBench.Failure("the raw statistic '\(job.name)' did not run")
                        }
                        values[job.name] = try outcome.get()
                    }
                    return values
                }
            }
        }

        // MARK: The statistics

        /// The hand-written computation of a manifest entry.
        static func job(for entry: PreparedEntry) throws -> Job {
            let parameters = entry.parameters
            let filter = Filter(try SessionFilter(parameters))
            let name = entry.name
            func unsupported(_ parameter: String) throws {
                if parameters.values[parameter] != nil {
                    throw SessionBench.Failure("the raw baseline does not implement '\(parameter)' (in '\(name)')")
                }
            }
            let compute: @Sendable (RawSQLite) throws -> [Double]
            switch entry.id {
            case "session_count":
                compute = { raw in [try single(raw, #"SELECT COUNT(*) FROM "Session" WHERE "# + filter.sql, filter) ?? 0] }
            case "total_time":
                compute = { raw in [try single(raw, #"SELECT SUM("duration") FROM "Session" WHERE "# + filter.sql, filter) ?? 0] }
            case "average_session_time":
                try unsupported("maximum_duration")
                compute = { raw in
                    try single(raw, #"SELECT AVG("duration") FROM "Session" WHERE "# + filter.sql, filter).map { [$0] } ?? []
                }
            case "longest_session":
                try unsupported("maximum_duration")
                compute = { raw in
                    try single(raw, #"SELECT MAX("duration") FROM "Session" WHERE "# + filter.sql, filter).map { [$0] } ?? []
                }
            case "median_session_time":
                try unsupported("maximum_duration")
                compute = { raw in try median(raw, filter).map { [$0] } ?? [] }
            case "by_kind":
                compute = { raw in
                    try tallies(raw, groupedBy: "kind", filter) + tallies(raw, groupedBy: "source", filter)
                }
            case "active_days", "current_streak", "longest_streak", "best_streaks", "weekly_streak", "consistency":
                let boundary = try parameters.dayBoundary()
                let today = boundary.day(of: filter.asOf)
                let excluded = try parameters.weekdays("excluded_weekdays") ?? []
                let id = entry.id
                let count = try parameters.integer("count") ?? 3
                let firstWeekday = try parameters.weekday("week_starts_on") ?? .monday
                compute = { raw in
                    let days = try activeDays(raw, filter, boundary: boundary)
                    switch id {
                    case "active_days":
                        return [Double(days.count)]
                    case "consistency":
                        return [Double(ConsistencyScore(activeDays: days, today: today).percent)]
                    default:
                        let streaks = StreakCalculator(activeDays: days, today: today, excludedWeekdays: excluded)
                        switch id {
                        case "current_streak": return [Double(streaks.currentStreak)]
                        case "longest_streak": return [Double(streaks.longestStreak?.length ?? 0)]
                        case "best_streaks":
                            return streaks.bestStreaks(count: count).flatMap {
                                [Double($0.start.dayNumber), Double($0.end.dayNumber), Double($0.length)]
                            }
                        default: return [Double(streaks.weeklyStreak(weekStartsOn: firstWeekday))]
                        }
                    }
                }
            case "days_since_last_session":
                let boundary = try parameters.dayBoundary()
                let today = boundary.day(of: filter.asOf)
                compute = { raw in
                    guard let latest = try single(raw, #"SELECT MAX("start") FROM "Session" WHERE "# + filter.sql, filter) else {
                        return []
                    }
                    // The latest start is not always the latest day (sessions keep their zones): days near it only.
                    let recent = filter.and(#""start" >= ?"#, .number(latest - 2 * 86_400))
                    guard let last = try activeDays(raw, recent, boundary: boundary).last else { return [] }
                    return [Double(last.distance(to: today))]
                }
            case "sessions_by_weekday":
                let boundary = try parameters.dayBoundary()
                let firstWeekday = try parameters.weekday("week_starts_on") ?? .monday
                compute = { raw in
                    var tallies = Array(repeating: (count: 0, time: 0.0), count: 8)
                    try scan(raw, filter, duration: true) { start, duration, zone in
                        let weekday = boundary.weekday(of: start, timeZone: zone).isoNumber
                        tallies[weekday].count += 1
                        tallies[weekday].time += duration
                    }
                    return Weekday.week(startingOn: firstWeekday).flatMap { [Double(tallies[$0.isoNumber].count), tallies[$0.isoNumber].time] }
                }
            case "sessions_by_hour":
                let boundary = DayBoundary(timeZone: try parameters.timeZone("time_zone") ?? parameters.environment.timeZone)
                compute = { raw in
                    var tallies = Array(repeating: (count: 0, time: 0.0), count: 24)
                    try scan(raw, filter, duration: true) { start, duration, zone in
                        let hour = boundary.localHour(of: start, timeZone: zone)
                        tallies[hour].count += 1
                        tallies[hour].time += duration
                    }
                    return tallies.flatMap { [Double($0.count), $0.time] }
                }
            case "totals_by_period":
                let boundary = try parameters.dayBoundary()
                let period = try parameters.string("period") ?? "month"
                guard ["month", "quarter", "year"].contains(period) else { throw SessionBench.Failure("unknown period '\(period)'") }
                compute = { raw in
                    func start(of day: LocalDay) -> LocalDay {
                        period == "month" ? day.startOfMonth : period == "quarter" ? day.startOfQuarter : day.startOfYear
                    }
                    func next(after day: LocalDay) -> LocalDay {
                        period == "month" ? day.adding(days: 31).startOfMonth
                            : period == "quarter" ? day.adding(days: 92).startOfQuarter : day.adding(days: 366).startOfYear
                    }
                    var tallies: [LocalDay: (count: Int, time: Double)] = [:]
                    try scan(raw, filter, duration: true) { instant, duration, zone in
                        let key = start(of: boundary.day(of: instant, timeZone: zone))
                        tallies[key, default: (0, 0)].count += 1
                        tallies[key, default: (0, 0)].time += duration
                    }
                    guard let first = tallies.keys.min(), let last = tallies.keys.max() else { return [] }
                    var values: [Double] = []
                    var period = first
                    while period <= last {
                        let tally = tallies[period] ?? (0, 0)
                        values += [Double(tally.count), tally.time]
                        period = next(after: period)
                    }
                    return values
                }
            default:
                throw SessionBench.Failure("the raw baseline has no computation of '\(entry.id)'")
            }
            return Job(name: name, compute: compute)
        }

        // MARK: SQL

        /// The qualifying sessions as a `WHERE` clause and its arguments, built from the statistic's filter as
        /// `SessionFilter.predicate` builds its predicate.
        struct Filter: Sendable {
            enum Argument: Sendable {
                case number(Double)
                case text(String)
            }

            private(set) var sql: String
            private(set) var arguments: [Argument]
            let asOf: Date

            /// With `STILLPOINT_BENCH_RAW_TABLE_SCAN=1`, the baseline writes `+"duration"` and `+"start"`, which
            /// keeps SQLite from answering these filters (true of nearly every row) through the indexes on duration
            /// and start, one table look-up per row, and makes it scan the table: an experiment, to see what that
            /// plan costs both sides (run it with `STILLPOINT_BENCH_SIDE=baseline`: the Stillpoint side cannot do it).
            static let scansTable = ProcessInfo.processInfo.environment["STILLPOINT_BENCH_RAW_TABLE_SCAN"] == "1"

            init(_ filter: SessionFilter) {
                var parts: [String] = []
                var arguments: [Argument] = []
                let duration = Self.scansTable ? #"+"duration""# : #""duration""#
                let start = Self.scansTable ? #"+"start""# : #""start""#
                if let minimum = filter.minimumDuration {
                    parts.append(duration + " >= ?")
                    arguments.append(.number(minimum))
                } else {
                    parts.append(duration + " > 0")
                }
                parts.append(start + " <= ?")
                arguments.append(.number(filter.asOf.timeIntervalSince1970))
                if let from = filter.from {
                    parts.append(#""start" >= ?"#)
                    arguments.append(.number(from.timeIntervalSince1970))
                }
                if let until = filter.until {
                    parts.append(#""start" < ?"#)
                    arguments.append(.number(until.timeIntervalSince1970))
                }
                if let kinds = filter.kinds {
                    parts.append(#""kind" IN ("# + kinds.map { _ in "?" }.joined(separator: ", ") + ")")
                    arguments += kinds.map(Argument.text)
                }
                self.sql = parts.joined(separator: " AND ")
                self.arguments = arguments
                self.asOf = filter.asOf
            }

            func and(_ condition: String, _ argument: Argument) -> Filter {
                var filter = self
                filter.sql += " AND " + condition
                filter.arguments.append(argument)
                return filter
            }

            func bind(to statement: OpaquePointer) {
                for (offset, argument) in arguments.enumerated() {
                    switch argument {
                    case .number(let value): sqlite3_bind_double(statement, Int32(offset + 1), value)
                    case .text(let value): sqlite3_bind_text(statement, Int32(offset + 1), value, -1, RawSQLite.transient)
                    }
                }
            }
        }

        /// Steps `sql` with the filter's arguments, calling `row` for each row until it returns `false`.
        private static func query(_ raw: RawSQLite, _ sql: String, _ filter: Filter, row: (OpaquePointer) throws -> Bool) throws {
            let statement = try raw.prepare(sql)
            defer { sqlite3_finalize(statement) }
            filter.bind(to: statement)
            while true {
                let code = sqlite3_step(statement)
                if code == SQLITE_DONE { return }
                guard code == SQLITE_ROW else { throw raw.failure(sql) }
                guard try row(statement) else { return }
            }
        }

        /// The first column of the single row of an aggregate; `nil` for NULL.
        private static func single(_ raw: RawSQLite, _ sql: String, _ filter: Filter) throws -> Double? {
            var value: Double?
            try query(raw, sql, filter) { statement in
                if sqlite3_column_type(statement, 0) != SQLITE_NULL { value = sqlite3_column_double(statement, 0) }
                return false
            }
            return value
        }

        /// `{count, time}` for each value of `column`, in order.
        private static func tallies(_ raw: RawSQLite, groupedBy column: String, _ filter: Filter) throws -> [Double] {
            var values: [Double] = []
            let sql = #"SELECT COUNT(*), SUM("duration") FROM "Session" WHERE "# + filter.sql
                + " GROUP BY \"\(column)\" ORDER BY \"\(column)\" ASC"
            try query(raw, sql, filter) { statement in
                values += [sqlite3_column_double(statement, 0), sqlite3_column_double(statement, 1)]
                return true
            }
            return values
        }

        /// The middle duration (the mean of the middle two for an even count): the count, then the distinct
        /// durations in order with their counts, stopping once the middle is reached.
        private static func median(_ raw: RawSQLite, _ filter: Filter) throws -> Double? {
            let count = Int(try single(raw, #"SELECT COUNT(*) FROM "Session" WHERE "# + filter.sql, filter) ?? 0)
            guard count > 0 else { return nil }
            let positions = (count - 1) / 2 ... count / 2
            var values: [Double] = []
            var seen = 0
            let sql = #"SELECT "duration", COUNT(*) FROM "Session" WHERE "# + filter.sql
                + #" GROUP BY "duration" ORDER BY "duration" ASC"#
            try query(raw, sql, filter) { statement in
                let duration = sqlite3_column_double(statement, 0)
                seen += Int(sqlite3_column_int64(statement, 1))
                while values.count < positions.count && positions.lowerBound + values.count < seen {
                    values.append(duration)
                }
                return values.count < positions.count
            }
            guard !values.isEmpty else { return nil }
            return values.reduce(0, +) / Double(values.count)
        }

        /// Calls `body` with the start, the duration (0 unless `duration`) and the zone of each qualifying session.
        private static func scan(_ raw: RawSQLite, _ filter: Filter, duration: Bool, _ body: (Date, Double, TimeZone?) -> Void) throws {
            let sql = duration
                ? #"SELECT "start", "timeZone", "duration" FROM "Session" WHERE "# + filter.sql
                : #"SELECT "start", "timeZone" FROM "Session" WHERE "# + filter.sql
            var zones = ZoneCache()
            try query(raw, sql, filter) { statement in
                body(Date(timeIntervalSince1970: sqlite3_column_double(statement, 0)),
                     duration ? sqlite3_column_double(statement, 2) : 0,
                     zones.zone(column: 1, of: statement))
                return true
            }
        }

        /// The distinct local days of the qualifying sessions, sorted.
        private static func activeDays(_ raw: RawSQLite, _ filter: Filter, boundary: DayBoundary) throws -> [LocalDay] {
            var days = Set<LocalDay>()
            try scan(raw, filter, duration: false) { start, _, zone in
                days.insert(boundary.day(of: start, timeZone: zone))
            }
            return days.sorted()
        }

        /// Zones by their names' bytes, so that a name is turned into a `TimeZone` once per scan, not once per row.
        private struct ZoneCache {
            private var names: [[UInt8]] = []
            private var zones: [TimeZone?] = []

            mutating func zone(column: Int32, of statement: OpaquePointer) -> TimeZone? {
                guard let text = sqlite3_column_text(statement, column) else { return nil }
                let count = Int(sqlite3_column_bytes(statement, column))
                for index in names.indices where names[index].count == count {
                    let same = names[index].withUnsafeBufferPointer { memcmp($0.baseAddress!, text, count) == 0 }
                    if same { return zones[index] }
                }
                let name = Array(UnsafeBufferPointer(start: text, count: count))
                let zone = TimeZone(identifier: String(decoding: name, as: UTF8.self))
                names.append(name)
                zones.append(zone)
                return zone
            }
        }
    }
}
