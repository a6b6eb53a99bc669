import ConsistencyStatistics
import Foundation
import GRDBSQLite
import PracticeLog
import RhythmStatistics
import StillpointManifest
import StillpointStatistics
import StreakStatistics
import Synchronization

extension ReportSuite {
    /// The baseline of the `report` suite: one table scan of the columns a report needs over the raw SQLite C API
    /// into plain arrays, then every statistic of the manifest computed by hand from them, with the same rules.
    ///
    /// - The scan reads `_id`, `start`, `duration`, `kind`, `source` and `timeZone` of every row in one
    ///   `SELECT ... FROM "Session"` (no `WHERE`, so SQLite scans the table instead of walking an index), and
    ///   resolves each zone and text once by its bytes; then each session's first import run from the link table
    ///   (`by_import`), as one grouped `SELECT`.
    /// - Each statistic then loops over the arrays with its own filter (`SessionFilter.admits`, the kinds by name)
    ///   and places sessions on local days and hours with `ZoneOffsets` and `DayBoundary`; the streaks and the
    ///   consistency score come from the pure calculators (`StreakCalculator`, `ConsistencyScore`) over the
    ///   sorted active days; the median sorts the durations.
    /// - Statistics run on `threads` threads after the scan, each taking the next statistic as it finishes one;
    ///   nothing is shared between them but the arrays.
    ///
    /// The qualifying sessions, today, the day rules and each statistic's parameters come from the prepared
    /// manifest entries, so the two sides cannot disagree on what they compute; a parameter the baseline does not
    /// implement (`maximum_duration`) is an error, not a silent difference.
    enum RawStatistics {
        /// One statistic, ready to run over the scanned rows: its numbers, flattened as ``ReportSuite/numbers(_:)`` does.
        struct Job: Sendable {
            let name: String
            let compute: @Sendable (Rows) throws -> [Double]
        }

        /// Every row of the session table, one array per column.
        struct Rows: Sendable {
            var ids: [Int64] = []
            var starts: [Double] = []
            var durations: [Double] = []
            var kinds: [Int32] = []
            var sources: [Int32] = []
            var zones: [Int32] = []
            /// Texts by number; -1 in a column is null.
            var kindNames: [String] = []
            var sourceNames: [String] = []
            var zoneValues: [TimeZone?] = []
            /// The first import run still in the store that read each session, by session id (`by_import`).
            var firstRuns: [Int64: Int64] = [:]

            /// Calls `body` with the index of each row `filter` admits.
            func forEach(_ filter: SessionFilter, _ body: (Int) -> Void) {
                let admitted = kindNames.map { name in filter.kinds.map { $0.contains(name) } ?? true }
                for index in starts.indices where filter.admits(start: starts[index], duration: durations[index]) {
                    let kind = Int(kinds[index])
                    guard kind >= 0 ? admitted[kind] : filter.kinds == nil else { continue }
                    body(index)
                }
            }

            /// The local wall-clock seconds of row `index`, in its zone or `fallback`'s.
            func localSeconds(_ index: Int, _ offsets: inout [Int32: ZoneOffsets], fallback: TimeZone) -> Double {
                let zone = zones[index]
                let key = zone >= 0 && zoneValues[Int(zone)] != nil ? zone : -1
                if offsets[key] == nil {
                    offsets[key] = ZoneOffsets(key >= 0 ? zoneValues[Int(key)] ?? fallback : fallback)
                }
                return offsets[key]!.localSeconds(of: starts[index])
            }
        }

        /// Scans the table once into ``Rows``.
        static func scan(_ raw: RawSQLite) throws -> Rows {
            var rows = Rows()
            var kindNumbers = TextNumbers(), sourceNumbers = TextNumbers(), zoneNumbers = TextNumbers()
            let sql = #"SELECT "start", "duration", "kind", "source", "timeZone", "_id" FROM "Session""#
            let statement = try raw.prepare(sql)
            defer { sqlite3_finalize(statement) }
            while true {
                let code = sqlite3_step(statement)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else { throw raw.failure(sql) }
                guard sqlite3_column_type(statement, 0) != SQLITE_NULL, sqlite3_column_type(statement, 1) != SQLITE_NULL else { continue }
                rows.starts.append(sqlite3_column_double(statement, 0))
                rows.durations.append(sqlite3_column_double(statement, 1))
                rows.kinds.append(kindNumbers.number(column: 2, of: statement))
                rows.sources.append(sourceNumbers.number(column: 3, of: statement))
                rows.zones.append(zoneNumbers.number(column: 4, of: statement))
                rows.ids.append(sqlite3_column_int64(statement, 5))
            }
            // A link's source is the run, its target the session; removing a run removes its links.
            let links = #"SELECT "target", min("source") FROM "\#(ImportRun.sessionLinksEntityName)" GROUP BY "target""#
            let linkStatement = try raw.prepare(links)
            defer { sqlite3_finalize(linkStatement) }
            while true {
                let code = sqlite3_step(linkStatement)
                if code == SQLITE_DONE { break }
                guard code == SQLITE_ROW else { throw raw.failure(links) }
                rows.firstRuns[sqlite3_column_int64(linkStatement, 0)] = sqlite3_column_int64(linkStatement, 1)
            }
            rows.kindNames = kindNumbers.texts
            rows.sourceNames = sourceNumbers.texts
            rows.zoneValues = zoneNumbers.texts.map { TimeZone(identifier: $0) }
            return rows
        }

        /// Numbers for the texts of a column, found by their bytes.
        private struct TextNumbers {
            private var bytes: [[UInt8]] = []
            private(set) var texts: [String] = []

            mutating func number(column: Int32, of statement: OpaquePointer) -> Int32 {
                guard let text = sqlite3_column_text(statement, column) else { return -1 }
                let count = Int(sqlite3_column_bytes(statement, column))
                for index in bytes.indices where bytes[index].count == count {
                    let same = bytes[index].withUnsafeBufferPointer { memcmp($0.baseAddress!, text, count) == 0 }
                    if same { return Int32(index) }
                }
                let name = Array(UnsafeBufferPointer(start: text, count: count))
                bytes.append(name)
                texts.append(String(decoding: name, as: UTF8.self))
                return Int32(bytes.count - 1)
            }
        }

        // MARK: Running

        /// Scans the table once, then runs `jobs` in order on `threads` threads, each thread taking the next job
        /// as it finishes one, as the report's queue does with its operations.
        static func run(_ jobs: [Job], threads: Int, store: TemporaryDirectory) async throws -> [String: [Double]] {
            let raw = try RawSQLite(.file, in: store)
            let rows = try runInTransaction(on: raw) { try scan(raw) }
            let board = Board(jobs: jobs, threads: threads, rows: rows)
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                for number in 0..<threads {
                    let thread = Thread {
                        board.work()
                        if board.threadFinished() { continuation.resume() }
                    }
                    thread.name = "stillpoint-bench.raw-report.\(number)"
                    thread.start()
                }
            }
            return try board.results()
        }

        /// Runs `body` in a read transaction.
        static func runInTransaction<T>(on raw: RawSQLite, _ body: () throws -> T) throws -> T {
            try raw.execute("BEGIN")
            do {
                let value = try body()
                try raw.execute("COMMIT")
                return value
            } catch {
                try? raw.execute("ROLLBACK")
                throw error
            }
        }

        private final class Board: Sendable {
            let jobs: [Job]
            let rows: Rows
            private let next = Atomic<Int>(0)
            private let running: Atomic<Int>
            private let outcomes = Mutex<[String: Result<[Double], any Error>]>([:])

            init(jobs: [Job], threads: Int, rows: Rows) {
                self.jobs = jobs
                self.rows = rows
                self.running = Atomic(threads)
            }

            func work() {
                while true {
                    let index = next.add(1, ordering: .relaxed).oldValue
                    guard index < jobs.count else { return }
                    let job = jobs[index]
                    let outcome = Result { try job.compute(rows) }
                    outcomes.withLock { $0[job.name] = outcome }
                }
            }

            /// Whether the calling thread was the last one working.
            func threadFinished() -> Bool {
                running.subtract(1, ordering: .acquiringAndReleasing).newValue == 0
            }

            func results() throws -> [String: [Double]] {
                try outcomes.withLock { outcomes in
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
            let filter = try SessionFilter(parameters)
            let name = entry.name
            func unsupported(_ parameter: String) throws {
                if parameters.values[parameter] != nil {
                    throw SessionBench.Failure("the raw baseline does not implement '\(parameter)' (in '\(name)')")
                }
            }
            let compute: @Sendable (Rows) throws -> [Double]
            switch entry.id {
            case "session_count":
                compute = { rows in
                    var count = 0
                    rows.forEach(filter) { _ in count += 1 }
                    return [Double(count)]
                }
            case "total_time":
                compute = { rows in [total(rows, filter)] }
            case "average_session_time":
                try unsupported("maximum_duration")
                compute = { rows in
                    var (count, sum) = (0, 0.0)
                    rows.forEach(filter) { count += 1; sum += rows.durations[$0] }
                    return count == 0 ? [] : [sum / Double(count)]
                }
            case "longest_session":
                try unsupported("maximum_duration")
                compute = { rows in
                    var longest: Double?
                    rows.forEach(filter) { longest = max(longest ?? 0, rows.durations[$0]) }
                    return longest.map { [$0] } ?? []
                }
            case "median_session_time":
                try unsupported("maximum_duration")
                compute = { rows in
                    var durations: [Double] = []
                    rows.forEach(filter) { durations.append(rows.durations[$0]) }
                    guard !durations.isEmpty else { return [] }
                    durations.sort()
                    return [(durations[(durations.count - 1) / 2] + durations[durations.count / 2]) / 2]
                }
            case "by_kind":
                compute = { rows in
                    tallies(rows, filter, column: rows.kinds, names: rows.kindNames)
                        + tallies(rows, filter, column: rows.sources, names: rows.sourceNames)
                }
            case "active_days", "current_streak", "longest_streak", "best_streaks", "weekly_streak", "consistency",
                 "days_since_last_session":
                let boundary = try parameters.dayBoundary()
                let today = boundary.day(of: filter.asOf)
                let excluded = try parameters.weekdays("excluded_weekdays") ?? []
                let id = entry.id
                let count = try parameters.integer("count") ?? 3
                let firstWeekday = try parameters.weekday("week_starts_on") ?? .monday
                compute = { rows in
                    let days = activeDays(rows, filter, boundary: boundary)
                    switch id {
                    case "active_days":
                        return [Double(days.count)]
                    case "consistency":
                        return [Double(ConsistencyScore(activeDays: days, today: today).percent)]
                    case "days_since_last_session":
                        return days.last.map { [Double($0.distance(to: today))] } ?? []
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
            case "sessions_by_weekday":
                let boundary = try parameters.dayBoundary()
                let firstWeekday = try parameters.weekday("week_starts_on") ?? .monday
                compute = { rows in
                    var tallies = Array(repeating: (count: 0, time: 0.0), count: 8)
                    var offsets: [Int32: ZoneOffsets] = [:]
                    rows.forEach(filter) { index in
                        let weekday = boundary.day(atLocalSeconds: rows.localSeconds(index, &offsets, fallback: boundary.timeZone)).weekday.isoNumber
                        tallies[weekday].count += 1
                        tallies[weekday].time += rows.durations[index]
                    }
                    return Weekday.week(startingOn: firstWeekday).flatMap { [Double(tallies[$0.isoNumber].count), tallies[$0.isoNumber].time] }
                }
            case "sessions_by_hour":
                let zone = try parameters.timeZone("time_zone") ?? parameters.environment.timeZone
                compute = { rows in
                    var tallies = Array(repeating: (count: 0, time: 0.0), count: 24)
                    var offsets: [Int32: ZoneOffsets] = [:]
                    rows.forEach(filter) { index in
                        let hour = DayBoundary.localHour(atLocalSeconds: rows.localSeconds(index, &offsets, fallback: zone))
                        tallies[hour].count += 1
                        tallies[hour].time += rows.durations[index]
                    }
                    return tallies.flatMap { [Double($0.count), $0.time] }
                }
            case "by_import":
                // Runs in the order they were made (by id), then the sessions no run read; names are not numbers.
                compute = { rows in
                    var runs: [Int64: (count: Int, time: Double)] = [:]
                    var notImported: (count: Int, time: Double)?
                    rows.forEach(filter) { index in
                        if let run = rows.firstRuns[rows.ids[index]] {
                            runs[run, default: (0, 0)].count += 1
                            runs[run, default: (0, 0)].time += rows.durations[index]
                        } else {
                            notImported = ((notImported?.count ?? 0) + 1, (notImported?.time ?? 0) + rows.durations[index])
                        }
                    }
                    let tallies = runs.sorted { $0.key < $1.key }.map(\.value) + (notImported.map { [$0] } ?? [])
                    return tallies.flatMap { [Double($0.count), $0.time] }
                }
            case "daily_activity":
                let boundary = try parameters.dayBoundary()
                let today = boundary.day(of: filter.asOf).dayNumber
                let days = try parameters.integer("days") ?? DailyActivity.defaultDays
                compute = { rows in
                    var tallies: [Int: (count: Int, time: Double)] = [:]
                    var offsets: [Int32: ZoneOffsets] = [:]
                    rows.forEach(filter) { index in
                        let day = boundary.dayNumber(atLocalSeconds: rows.localSeconds(index, &offsets, fallback: boundary.timeZone))
                        tallies[day, default: (0, 0)].count += 1
                        tallies[day, default: (0, 0)].time += rows.durations[index]
                    }
                    // The `days` days through today, or through the last active day when none of them has practice.
                    let last = tallies.keys.max()
                    let end = last.map { $0 < today - (days - 1) ? $0 : today } ?? today
                    return tallies.filter { (end - (days - 1)...end).contains($0.key) }.sorted { $0.key < $1.key }
                        .flatMap { [Double($0.value.count), $0.value.time] }
                }
            case "totals_by_period":
                let boundary = try parameters.dayBoundary()
                let period = try parameters.string("period") ?? "month"
                guard ["month", "quarter", "year"].contains(period) else { throw SessionBench.Failure("unknown period '\(period)'") }
                compute = { rows in
                    func start(of day: LocalDay) -> LocalDay {
                        period == "month" ? day.startOfMonth : period == "quarter" ? day.startOfQuarter : day.startOfYear
                    }
                    func next(after day: LocalDay) -> LocalDay {
                        period == "month" ? day.adding(days: 31).startOfMonth
                            : period == "quarter" ? day.adding(days: 92).startOfQuarter : day.adding(days: 366).startOfYear
                    }
                    var tallies: [LocalDay: (count: Int, time: Double)] = [:]
                    var offsets: [Int32: ZoneOffsets] = [:]
                    rows.forEach(filter) { index in
                        let key = start(of: boundary.day(atLocalSeconds: rows.localSeconds(index, &offsets, fallback: boundary.timeZone)))
                        tallies[key, default: (0, 0)].count += 1
                        tallies[key, default: (0, 0)].time += rows.durations[index]
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

        private static func total(_ rows: Rows, _ filter: SessionFilter) -> Double {
            var sum = 0.0
            rows.forEach(filter) { sum += rows.durations[$0] }
            return sum
        }

        /// `{count, time}` for each value of `column`, in the texts' byte order, null first.
        private static func tallies(_ rows: Rows, _ filter: SessionFilter, column: [Int32], names: [String]) -> [Double] {
            var tallies: [Int32: (count: Int, time: Double)] = [:]
            rows.forEach(filter) { index in
                tallies[column[index], default: (0, 0)].count += 1
                tallies[column[index], default: (0, 0)].time += rows.durations[index]
            }
            let order = tallies.keys.sorted { a, b in
                a < 0 || b < 0 ? a < b : Array(names[Int(a)].utf8).lexicographicallyPrecedes(Array(names[Int(b)].utf8))
            }
            return order.flatMap { [Double(tallies[$0]!.count), tallies[$0]!.time] }
        }

        /// The distinct local days of the qualifying sessions, sorted.
        private static func activeDays(_ rows: Rows, _ filter: SessionFilter, boundary: DayBoundary) -> [LocalDay] {
            var days = Set<Int>()
            var offsets: [Int32: ZoneOffsets] = [:]
            rows.forEach(filter) { index in
                days.insert(boundary.dayNumber(atLocalSeconds: rows.localSeconds(index, &offsets, fallback: boundary.timeZone)))
            }
            return days.sorted().map(LocalDay.init(dayNumber:))
        }
    }
}
