import Foundation
import StillpointCore

extension LiveSuite {
    /// Another process's commit to the live snapshot that shows it: issue 26's row for SQLite's doorbell and
    /// PostgreSQL's `NOTIFY`.
    ///
    /// The store holds N items, and the view context holds live results of every item ordered by title, merging
    /// automatically, with ``PersistentContainer/observeOtherProcesses(every:)`` at its default interval: what an
    /// application following other processes does. A child process (this benchmark re-invoked as
    /// `stillpoint-bench live-writer`, see ``Writer``) opens the same store and, each time the parent asks, inserts
    /// one item and saves, then the parent waits for the snapshot holding it. One commit at a time: each is timed
    /// alone, not behind the one before.
    ///
    /// **Timed**: from the moment the child's `save()` returned to the snapshot's arrival in a loop iterating the
    /// live results, both read on `CLOCK_MONOTONIC` (``MonotonicClock``), which every process of the machine
    /// shares. `seconds` is the p50 of a run's commits; `p50_ms`, `p99_ms` and `max_ms` are its percentiles,
    /// `from_save_start_p99_ms` the p99 counted from the start of the child's save instead (its commit included),
    /// and `save_p50_ms` the child's save itself. Checked: each commit's snapshot has one more row, inserted, the
    /// item the child saved; a commit not seen within 30 s fails the run.
    static func otherProcess(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        let rows = benchmarkCase.n
        let commits = commitsPerRun(rows: rows)
        let location = try benchmarkCase.store.location(in: benchmarkCase.directory)
        let container = try StoreKind.container(schema: Item.schema, at: location)
        try await storeItems(rows, in: container)
        let view = container.viewContext
        await view.setAutomaticallyMergesChangesFromParent(true)
        let watcher = container.observeOtherProcesses()
        defer { watcher.cancel() }
        let results = try await view.liveResults(for: FetchRequest(Item.self, sortedBy: [.ascending(Item.title)]))
        // The consumer: a loop that notes when each snapshot arrives, on the clock the child reads too.
        let (arrivals, arrived) = AsyncStream.makeStream(of: (LiveSnapshot, Int64).self)
        let consumer = Task {
            for await snapshot in results { arrived.yield((snapshot, MonotonicClock.nanoseconds())) }
            arrived.finish()
        }
        defer { consumer.cancel() }
        var arrivalIterator = arrivals.makeAsyncIterator()
        _ = await arrivalIterator.next()  // the first snapshot

        var environment = ProcessInfo.processInfo.environment
        environment[Writer.schemeVariable] = location.scheme
        environment[Writer.addressVariable] = location.address
        let child = try RunningChild(URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")),
                                     [Writer.command, String(rows)], environment: environment, name: "live-writer",
                                     in: benchmarkCase.directory)
        var seen: [Int64] = []
        do {
            try await benchmarkCase.settle()
            for commit in 0..<commits {
                let uid = Int32(rows + commit)
                try child.send("commit")
                // A watchdog: stopping the results ends the loop, so a commit never seen fails instead of hanging.
                let watchdog = Task {
                    try await Task.sleep(for: .seconds(30))
                    await results.stop()
                }
                let arrival = await arrivalIterator.next()
                watchdog.cancel()
                guard let (snapshot, time) = arrival else {
                    throw Failure("commit \(commit + 1) of \(commits) of the other process (item \(uid)) was not seen within 30 s")
                }
                let inserted = snapshot.difference.inserted.map { snapshot[$0][Item.uid] }
                guard snapshot.count == rows + commit + 1, inserted == [uid] else {
                    throw Failure("after the other process's commit of item \(uid), the snapshot has \(snapshot.count) rows "
                                  + "(not \(rows + commit + 1)) and inserted \(inserted.map { $0.map(String.init) ?? "nil" })")
                }
                seen.append(time)
            }
        } catch {
            await child.kill()
            throw error
        }
        let ending = await child.finish()
        guard ending.succeeded else { throw Failure("the live-writer child failed (status \(ending.status)):\n\(ending.log)") }
        let saves = try Writer.saves(in: try String(contentsOf: child.output, encoding: .utf8))
        guard saves.map(\.uid) == (0..<commits).map({ Int32(rows + $0) }) else {
            throw Failure("the live-writer child reported saving items \(saves.map(\.uid).prefix(10))..., not \(rows) to \(rows + commits - 1)")
        }
        await results.stop()

        let latencies = zip(saves, seen).map { save, time in MonotonicClock.seconds(from: save.end, to: time) }
        let fromStart = zip(saves, seen).map { save, time in MonotonicClock.seconds(from: save.start, to: time) }
        let saveTimes = saves.map { MonotonicClock.seconds(from: $0.start, to: $0.end) }
        let percentile = PractitionersSuite.percentile
        return Sample(seconds: percentile(latencies, 0.5), metrics: [
            "p50_ms": percentile(latencies, 0.5) * 1_000, "p99_ms": percentile(latencies, 0.99) * 1_000,
            "max_ms": (latencies.max() ?? .nan) * 1_000, "from_save_start_p99_ms": percentile(fromStart, 0.99) * 1_000,
            "save_p50_ms": percentile(saveTimes, 0.5) * 1_000, "commits": Double(commits),
        ])
    }

    /// The commits of one run: 500, fewer for a small store (N / 20, at least 20: 25 in a smoke run).
    static func commitsPerRun(rows: Int) -> Int {
        min(500, max(20, rows / 20))
    }

    /// The other process of ``otherProcess(_:)``: `stillpoint-bench live-writer <first uid>`, not listed in the help.
    ///
    /// It opens the store that `STILLPOINT_BENCH_LIVE_SCHEME` and `STILLPOINT_BENCH_LIVE_ADDRESS` name (in the
    /// environment, so that a PostgreSQL password never shows in a process list), then for each line read on
    /// standard input inserts one item (uids from the first on, counting up) and saves it; at the end of its
    /// input it prints one line per save, `<uid> <start ns> <end ns>`, the save's start and return on
    /// `CLOCK_MONOTONIC`.
    enum Writer {
        static let command = "live-writer"
        static let schemeVariable = "STILLPOINT_BENCH_LIVE_SCHEME"
        static let addressVariable = "STILLPOINT_BENCH_LIVE_ADDRESS"

        /// One save of the child: the item's uid, and when the save started and returned.
        struct Save: Sendable {
            let uid: Int32
            let start: Int64
            let end: Int64
        }

        /// Runs the child's side; `arguments` are those after the command.
        static func run(arguments: [String]) async throws {
            guard arguments.count == 1, var uid = Int32(arguments[0]) else {
                throw Failure("\(command) takes the first uid to insert, a whole number, as its one argument")
            }
            let environment = ProcessInfo.processInfo.environment
            guard let scheme = environment[schemeVariable], let address = environment[addressVariable] else {
                throw Failure("\(command) needs the store in \(schemeVariable) and \(addressVariable); the live suite sets them")
            }
            let container = try StoreKind.container(schema: Item.schema, at: StoreLocation(scheme: scheme, address: address))
            let writer = container.newBackgroundContext(name: command)
            var saves: [Save] = []
            while readLine() != nil {
                saves.append(try await writer.perform { [uid] context in
                    let item = context.insert(Item.self)
                    item[Item.uid] = uid
                    item[Item.title] = Item.title(uid)
                    let start = MonotonicClock.nanoseconds()
                    try await context.save()
                    return Save(uid: uid, start: start, end: MonotonicClock.nanoseconds())
                })
                uid += 1
            }
            print(saves.map { "\($0.uid) \($0.start) \($0.end)" }.joined(separator: "\n"))
            try container.close()
        }

        /// The saves a child printed.
        static func saves(in output: String) throws -> [Save] {
            try output.split(separator: "\n").map { line in
                let fields = line.split(separator: " ")
                guard fields.count == 3, let uid = Int32(fields[0]), let start = Int64(fields[1]), let end = Int64(fields[2]) else {
                    throw Failure("the live-writer child printed '\(line)', not '<uid> <start ns> <end ns>'")
                }
                return Save(uid: uid, start: start, end: end)
            }
        }
    }
}
