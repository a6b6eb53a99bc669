import Foundation
import StillpointPostgresTestSupport
import Synchronization

/// The PostgreSQL server the `postgres` store runs on: one per benchmark process, a fresh database per
/// measurement, dropped when the measurement ends.
///
/// By default the throwaway test server (`PostgresTestServer`: `initdb` in a temporary folder, in memory under
/// `/dev/shm` where there is one, a Unix socket, `fsync`, `synchronous_commit` and `full_page_writes` off), started
/// on first use and stopped when the process exits. `STILLPOINT_BENCH_POSTGRES=<uri>` names a running server instead (the URI of a database the benchmark
/// may run `CREATE DATABASE` from), for measuring with other settings:
///
/// ```sh
/// STILLPOINT_BENCH_POSTGRES='postgresql:///postgres?host=/tmp/pg&user=postgres' stillpoint-bench seed004 --store postgres
/// ```
///
/// A child process of the benchmark (see ``SessionBench/ChildProcess``) is handed the same variable, so that both
/// sides of a measurement run on the same server.
enum PostgresServer {
    static let variable = "STILLPOINT_BENCH_POSTGRES"

    /// The URI of the server's maintenance database, the server started on first use.
    static func maintenanceURI() throws -> String {
        try started.get()
    }

    private static let started: Result<String, RawPostgres.Failure> = Result {
        if let uri = ProcessInfo.processInfo.environment[variable], !uri.isEmpty { return uri }
        return try PostgresTestServer.shared().uri()
    }.mapError { $0 as? RawPostgres.Failure ?? RawPostgres.Failure(description: "\($0)") }

    /// The databases made in this process and not yet dropped.
    private static let databases = Mutex<[String]>([])

    /// A new empty database (`bench_<prefix>_<random>`) and its URI; `kept` leaves it out of
    /// ``dropDatabases()``, for a fixture that later measurements read (it lives as long as the server).
    static func makeDatabase(_ prefix: String, kept: Bool = false) throws -> String {
        let maintenance = try maintenanceURI()
        let name = "bench_\(prefix)_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased())"
        try RawPostgres(uri: maintenance).execute("CREATE DATABASE \(name) TEMPLATE template0")
        if !kept { databases.withLock { $0.append(name) } }
        return uri(maintenance, database: name)
    }

    /// Drops the databases this process made (closing any connection still open to them), so that a long run
    /// does not fill the disk.
    static func dropDatabases() throws {
        let names = databases.withLock { names in
            defer { names.removeAll() }
            return names
        }
        guard !names.isEmpty else { return }
        let raw = try RawPostgres(uri: try maintenanceURI())
        for name in names {
            try raw.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        }
    }

    /// CPU seconds (user and system) used so far by each server process connected to a database this process
    /// made, by process id; `[:]` where the server's processes cannot be read (another machine, no `/proc`).
    ///
    /// Two readings around a measurement give the server's share of it (``serverCPUSeconds(since:)``), which
    /// `cpu_ms` (this process only) leaves out.
    static func backendCPU() -> [Int32: Double] {
        let names = databases.withLock { $0 }
        guard !names.isEmpty, let raw = try? RawPostgres(uri: maintenanceURI()) else { return [:] }
        let list = names.map { "'\($0)'" }.joined(separator: ", ")
        var pids: [Int32] = []
        try? raw.query("SELECT pid FROM pg_stat_activity WHERE datname IN (\(list))") { column in
            pids.append(Int32(truncatingIfNeeded: strtol(column(0), nil, 10)))
        }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        var seconds: [Int32: Double] = [:]
        for pid in pids {
            // Fields 14 and 15 of /proc/<pid>/stat, counted after the command name's closing parenthesis.
            guard ticks > 0, let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
            seconds[pid] = (user + system) / ticks
        }
        return seconds
    }

    /// The server CPU seconds used since `before` (a ``backendCPU()`` reading) by the processes connected now to
    /// this process's databases; a process that connected since counts from zero.
    static func serverCPUSeconds(since before: [Int32: Double]) -> Double {
        backendCPU().reduce(0) { sum, entry in sum + max(0, entry.value - (before[entry.key] ?? 0)) }
    }

    /// The server's version and the settings that decide write speed, for the tables: `PostgreSQL 15.14, fsync=off, ...`.
    static func settingsSummary() -> String {
        guard let raw = try? RawPostgres(uri: maintenanceURI()) else { return "PostgreSQL (settings unknown)" }
        // The data directory too: the throwaway server puts it in memory (/dev/shm) where it can.
        let names = ["fsync", "synchronous_commit", "full_page_writes", "wal_level", "shared_buffers", "data_directory"]
        let settings = names.map { name in "\(name)=\((try? raw.text("SHOW \(name)")) ?? "?")" }
        let version = (try? raw.text("SHOW server_version")).map { $0.split(separator: " ").first.map(String.init) ?? $0 } ?? "?"
        return "PostgreSQL \(version), " + settings.joined(separator: ", ")
    }

    /// `uri` pointing at `database` instead of the one it names: a `postgresql://` URI with its path replaced, or
    /// libpq's `key=value` pairs with a `dbname` added (libpq takes the last of a repeated key).
    static func uri(_ uri: String, database: String) -> String {
        if uri.hasPrefix("postgresql://") || uri.hasPrefix("postgres://"), var components = URLComponents(string: uri) {
            components.path = "/" + database
            if let rewritten = components.string { return rewritten }
        }
        return uri + " dbname=\(database)"
    }
}
