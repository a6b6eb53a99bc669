import Foundation
import Synchronization

/// Issue 24's benchmark: `stillpoint-server` over a PostgreSQL store of N practitioners (the `practitioners`
/// suite's rows), on loopback, measured with wrk and the suite's own client (``LoopbackConnection``), server and
/// client on the same cores. Every row of the table, in one run:
///
/// | workload | what is measured (`seconds`, and metrics) | baseline |
/// |---|---|---|
/// | `startup` | launch to the first 200 of `/readyz`, a new instance on the store of N | none |
/// | `cold-report` | p99 of a first `GET report` per practitioner (no digest held), on a new instance; p50 too | none |
/// | `warm-all` | every practitioner's JSON report requested once; then the instance's RSS with all digests held | none |
/// | `get-report` | wrk: `GET report` JSON of random practitioners with their tokens, every digest warm: seconds per request, req/s, p50, p99 | Hummingbird's hello-world route (`bench-hello-server`), same wrk, same run |
/// | `get-report-writing` | the same while 100 sessions a second are posted to random practitioners | none |
/// | `freshness` | a session posted to instance A, until instance B's event stream sends the report with it: p50, p99 | none |
/// | `digest-memory` | in this process, no HTTP: every report warmed through `LiveReports`; heap and RSS per practitioner, by part | none |
///
/// Each number is checked for sense whatever the size (wrk saw no error answer, every posted session was saved,
/// every digest is held, each post reached the other instance), so the smoke run in CI checks them too.
struct ServeSuite: BenchmarkSuite {
    let name = "serve"
    let summary = "stillpoint-server on PostgreSQL (issue 24): reports over HTTP, vs Hummingbird's hello world"
    let sizes = [300]
    let stores: [StoreKind] = [.postgres]
    /// A handful of practitioners of about 210 sessions each.
    let smokeSize = 5

    var workloads: [Workload] {
        [Workload(name: "startup", measure: Self.measureStartup),
         Workload(name: "cold-report", measure: Self.measureColdReport),
         Workload(name: "warm-all", measure: Self.measureWarmAll),
         Workload(name: "get-report", measure: Self.measureGetReport),
         Workload(name: "get-report-writing", measure: Self.measureGetReportWriting),
         Workload(name: "freshness", measure: Self.measureFreshness),
         Workload(name: "digest-memory", measure: Self.measureDigestMemory)]
    }

    /// Connections that warm the reports at once.
    static let warmers = 4
    /// Sessions posted a second during `get-report-writing`, and over how many connections.
    static let postsPerSecond = 100.0
    static let postingConnections = 10
    /// The environment variable naming the `stillpoint-server` to measure, instead of the one built beside
    /// `stillpoint-bench`.
    static let serverVariable = "STILLPOINT_BENCH_SERVER"

    /// How long wrk loads a server: a short while in a smoke run.
    static func loadSeconds(_ n: Int) -> Int { n < 100 ? 2 : 10 }

    /// How many first requests, and how many posts to the other instance, are timed.
    static func samples(_ n: Int) -> Int { n < 100 ? 5 : 200 }

    static func reportPath(_ id: String) -> String { "/v1/practitioners/\(id)/report?format=json" }

    /// The executable `name` (`stillpoint-server`, `bench-hello-server`): beside this benchmark's own, where
    /// `swift build --package-path Benchmarks --product NAME` puts it; `stillpoint-server` from
    /// `STILLPOINT_BENCH_SERVER` when it is set.
    static func executable(_ name: String) throws -> URL {
        if name == "stillpoint-server", let path = ProcessInfo.processInfo.environment[serverVariable], !path.isEmpty {
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw SessionBench.Failure("\(serverVariable)=\(path) is not an executable; build it with `swift build -c release --product stillpoint-server`")
            }
            return URL(fileURLWithPath: path)
        }
        let own = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
        let beside = own.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: beside.path) else {
            throw SessionBench.Failure("\(name) is not built beside stillpoint-bench (\(beside.path)); build it with "
                                       + "`swift build -c release --package-path Benchmarks --product \(name)` (without -c release for a debug run)")
        }
        return beside
    }

    // MARK: Workloads

    static func measureStartup(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        let server = try await Fixture.shared.startServer(benchmarkCase.n)
        defer { server.stop() }
        let ready = server.secondsToReady
        guard ready > 0 else { throw SessionBench.Failure("startup measured no time") }
        return Sample(seconds: ready, metrics: ["ready_ms": ready * 1_000])
    }

    static func measureColdReport(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        let n = benchmarkCase.n
        let store = try await Fixture.shared.store(n)
        let server = try await Fixture.shared.startServer(n)
        defer { server.stop() }
        let ids = PractitionersSuite.sample(n, count: samples(n))
        let times = try await onThread {
            let connection = try LoopbackConnection(port: server.port)
            return try ids.map { id in
                var answer: LoopbackConnection.Response?
                let seconds = try Stopwatch.seconds { answer = try connection.send("GET", reportPath(id), token: store.token(id)) }
                guard let answer, answer.status == 200, answer.text.hasPrefix("{") else {
                    throw SessionBench.Failure("the first report of \(id) answered \(answer?.status ?? 0): \(answer?.text.prefix(300) ?? "")")
                }
                return seconds
            }
        }
        let p99 = percentile(times, 0.99)
        return Sample(seconds: p99, metrics: ["p50_ms": percentile(times, 0.5) * 1_000, "p99_ms": p99 * 1_000, "requests": Double(times.count)])
    }

    static func measureWarmAll(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        let n = benchmarkCase.n
        let warm = try await Fixture.shared.warmServer(n)
        let metrics = try await onThread { try LoopbackConnection(port: warm.server.port).send("GET", "/metrics").text }
        let digests = prometheus(metrics, "stillpoint_digests") ?? 0
        guard digests >= Double(n) else {
            throw SessionBench.Failure("after warming \(n) practitioners the server holds \(Int(digests)) digests")
        }
        guard let rss = warm.server.residentMegabytes, rss > 0 else { throw SessionBench.Failure("the server's memory could not be read") }
        return Sample(seconds: warm.seconds, metrics: [
            "rss_mb": rss, "digests": digests, "digest_mb": (prometheus(metrics, "stillpoint_digest_bytes") ?? 0) / 1_048_576,
            "report_mb": (prometheus(metrics, "stillpoint_report_bytes") ?? 0) / 1_048_576,
        ])
    }

    static func measureGetReport(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        let n = benchmarkCase.n
        let store = try await Fixture.shared.store(n)
        let warm = try await Fixture.shared.warmServer(n)
        let hello = try await ServedProcess.start(try executable("bench-hello-server"), ["{port}"], readyPath: "/",
                                                  logIn: benchmarkCase.directory.url)
        let baseline: Wrk.Result
        do {
            defer { hello.stop() }
            baseline = try await Wrk.run(port: hello.port, seconds: loadSeconds(n), in: benchmarkCase.directory)
        }
        let result = try await Wrk.run(port: warm.server.port, seconds: loadSeconds(n), script: wrkScript(store), in: benchmarkCase.directory)
        try check(result, "GET report")
        try check(baseline, "GET / of the hello-world server")
        return Sample(seconds: 1 / result.requestsPerSecond, baselineSeconds: 1 / baseline.requestsPerSecond, metrics: [
            "req_per_s": result.requestsPerSecond, "p50_ms": result.p50Milliseconds, "p99_ms": result.p99Milliseconds,
            "hello_req_per_s": baseline.requestsPerSecond, "hello_p99_ms": baseline.p99Milliseconds,
        ])
    }

    static func measureGetReportWriting(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        let n = benchmarkCase.n
        let store = try await Fixture.shared.store(n)
        let warm = try await Fixture.shared.warmServer(n)
        // Several connections: a server saturated by wrk's connections answers each one's requests in turn.
        let posters = (0..<postingConnections).map { _ in
            SessionPoster(port: warm.server.port, store: store, perSecond: postsPerSecond / Double(postingConnections))
        }
        let result: Wrk.Result
        do {
            defer { for poster in posters { poster.stop() } }
            result = try await Wrk.run(port: warm.server.port, seconds: loadSeconds(n), script: wrkScript(store), in: benchmarkCase.directory)
        }
        let each = try posters.map { try $0.result() }
        let posted = SessionPoster.Posted(sent: each.reduce(0) { $0 + $1.sent }, saved: each.reduce(0) { $0 + $1.saved },
                                          seconds: each.map(\.seconds).max() ?? 0)
        try check(result, "GET report while sessions are posted")
        guard posted.saved > 0, posted.saved == posted.sent, posted.seconds > 0 else {
            throw SessionBench.Failure("\(posted.sent) sessions were posted during the load and \(posted.saved) saved")
        }
        return Sample(seconds: 1 / result.requestsPerSecond, metrics: [
            "req_per_s": result.requestsPerSecond, "p50_ms": result.p50Milliseconds, "p99_ms": result.p99Milliseconds,
            "posted_per_s": Double(posted.saved) / posted.seconds,
        ])
    }

    static func measureFreshness(_ benchmarkCase: BenchmarkCase) async throws -> Sample {
        let n = benchmarkCase.n
        let store = try await Fixture.shared.store(n)
        let first = try await Fixture.shared.warmServer(n).server
        let second = try await Fixture.shared.startServer(n)
        defer { second.stop() }
        let id = PractitionerData.id(n / 2)
        let count = samples(n)
        let times = try await onThread {
            let stream = try LoopbackConnection(port: second.port)
            try stream.openEventStream("/v1/practitioners/\(id)/report/events", token: store.token(id))
            var generation = try stream.nextEvent()
            let poster = try LoopbackConnection(port: first.port)
            let clock = ContinuousClock()
            return try (0..<count).map { index in
                // Whatever else the other instance sent (a refresh of its own) is read first.
                usleep(20_000)
                while stream.hasInput() { generation = max(generation, try stream.nextEvent()) }
                let answer = try poster.send("POST", "/v1/practitioners/\(id)/sessions", token: store.token(id),
                                             body: SessionPoster.body(seed: index))
                let acknowledged = clock.now
                guard answer.status == 201 else { throw SessionBench.Failure("posting to \(id) answered \(answer.status): \(answer.text.prefix(300))") }
                let next = try stream.nextEvent()
                let elapsed = (clock.now - acknowledged).components
                guard next > generation else {
                    throw SessionBench.Failure("the other instance sent generation \(next) after \(generation) for a new session")
                }
                generation = next
                return Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18
            }
        }
        let p50 = percentile(times, 0.5)
        return Sample(seconds: p50, metrics: ["p50_ms": p50 * 1_000, "p99_ms": percentile(times, 0.99) * 1_000, "posts": Double(times.count)])
    }

    // MARK: Helpers

    /// wrk's Lua: each request a random practitioner's JSON report, with that practitioner's token.
    static func wrkScript(_ store: Fixture.Store) -> String {
        """
        math.randomseed(os.time())
        request = function()
          local id = string.format("p%05d", math.random(0, \(store.n - 1)))
          return wrk.format("GET", "/v1/practitioners/" .. id .. "/report?format=json", { ["Authorization"] = "Bearer \(store.secret)" .. id })
        end
        """
    }

    static func check(_ result: Wrk.Result, _ what: String) throws {
        guard result.requests > 0, result.requestsPerSecond > 0, result.p99Milliseconds > 0 else {
            throw SessionBench.Failure("wrk measured nothing of \(what)")
        }
        guard result.failures == 0 else {
            throw SessionBench.Failure("\(what): \(result.failures) of \(result.requests) answers were errors (or socket errors)")
        }
    }

    /// The value of a sample of Prometheus text, by its name.
    static func prometheus(_ text: String, _ name: String) -> Double? {
        text.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.dropFirst(name.count + 1)) }
    }

    /// The value below which `fraction` of `values` lie (nearest rank).
    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }

    /// Runs blocking `work` (sockets) on a thread of its own, not on one of Swift's few cooperative threads.
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try work() }) }.start()
        }
    }

    /// Runs `work(worker)` for each of `count` workers, each on a thread of its own; throws the first error.
    static func onThreads(_ count: Int, _ work: @escaping @Sendable (Int) throws -> Void) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<count { group.addTask { try await onThread { try work(worker) } } }
            try await group.waitForAll()
        }
    }
}
