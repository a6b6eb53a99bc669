import Foundation
import StillpointChildProcess
import StillpointPostgres

/// A throwaway PostgreSQL server for the tests: `initdb` in a temporary folder, listening on a Unix socket in
/// that folder only (no TCP), shared by the tests of a process (or one of a test's own, to stop and start),
/// stopped when the process exits.
///
/// When running as root, the server runs as the `postgres` user (`initdb` refuses root). With
/// `STILLPOINT_TEST_POSTGRES=skip` set on purpose, the PostgreSQL tests are skipped; otherwise a server that
/// cannot start fails them with what to install.
///
/// ```swift
/// @Test(.enabled(if: PostgresTestServer.isWanted)) func roundTrip() throws {
///     let uri = try PostgresTestServer.shared().makeDatabase()
///     let connection = try PostgresConnection(uri: uri)
/// }
/// ```
public final class PostgresTestServer: Sendable {
    public let directory: URL

    /// Whether the PostgreSQL tests run: unless `STILLPOINT_TEST_POSTGRES=skip`.
    public static let isWanted = ProcessInfo.processInfo.environment["STILLPOINT_TEST_POSTGRES"] != "skip"

    /// The server of this test process, started on first use.
    public static func shared() throws -> PostgresTestServer {
        try started.get()
    }

    private static let started: Result<PostgresTestServer, ServerFailure> = Result { try PostgresTestServer() }
        .mapError { $0 as? ServerFailure ?? ServerFailure(description: "\($0)") }

    /// A server of the caller's own, for a test that stops and starts it (the shared one serves tests running
    /// at the same time); stopped when the process exits.
    public static func ownServer() throws -> PostgresTestServer {
        do {
            return try PostgresTestServer()
        } catch {
            throw error as? ServerFailure ?? ServerFailure(description: "\(error)")
        }
    }

    public struct ServerFailure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The URI of `database` on this server.
    public func uri(database: String = "postgres") -> String {
        "postgresql:///\(database)?host=\(directory.path)&user=postgres"
    }

    /// A new empty database of its own for a suite or test, and its URI.
    ///
    /// A file copy of an empty template made once (the server runs with `fsync` off): 26 ms in memory on a loaded
    /// machine (0.1 to 0.5 s on ext4), where a schema (`CREATE SCHEMA`) takes a few.
    public func makeDatabase(_ prefix: String = "test") throws -> String {
        let name = "\(prefix)_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased())"
        let connection = try PostgresConnection(uri: uri())
        try connection.execute("CREATE DATABASE \(name) TEMPLATE \(Self.template) STRATEGY FILE_COPY")
        return uri(database: name)
    }

    /// The template every test database is copied from, made when the server starts.
    static let template = "stillpoint_template"

    private init() throws {
        Self.stopServersOfDeadProcesses()
        directory = URL(fileURLWithPath: Self.parentFolder).appendingPathComponent("stillpoint-pg-\(getpid())-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        if getuid() == 0 {
            try FileManager.default.setAttributes([.ownerAccountName: "postgres"], ofItemAtPath: directory.path)
        }
        let data = directory.appendingPathComponent("data").path
        do {
            try Self.run(Self.binary("initdb"), ["-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"])
            try start()
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw ServerFailure(description: "cannot start a PostgreSQL server for the tests (\(error)); install it with "
                                + "`apt-get install postgresql libpq-dev`, or set STILLPOINT_TEST_POSTGRES=skip to skip these tests")
        }
        let first = Self.running.withLock { paths in
            paths.append(directory.path)
            return paths.count == 1
        }
        if first {
            atexit {
                for path in PostgresTestServer.running.withLock({ $0 }) {
                    try? PostgresTestServer.run(PostgresTestServer.binary("pg_ctl"), ["-D", path + "/data", "-m", "immediate", "-w", "stop"])
                    try? FileManager.default.removeItem(atPath: path)
                }
            }
        }
        try PostgresConnection(uri: uri()).execute("CREATE DATABASE \(Self.template) TEMPLATE template0")
    }

    /// Starts the server on its data folder and socket, as it was made or after ``stop()``.
    public func start() throws {
        try Self.run(Self.binary("pg_ctl"), [
            "-D", directory.appendingPathComponent("data").path, "-l", directory.appendingPathComponent("server.log").path,
            "-w", "-t", "30",
            "-o", "-k \(directory.path) -c listen_addresses='' -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=1500",
            "start",
        ])
    }

    /// Stops the server, ending every connection to it (as an administrator's restart does); ``start()`` starts it
    /// again with the same data, at the same URIs.
    public func stop() throws {
        try Self.run(Self.binary("pg_ctl"), ["-D", directory.appendingPathComponent("data").path, "-m", "fast", "-w", "stop"])
    }

    /// Where the server's folder goes: memory (`/dev/shm`) where there is such a folder, else `/tmp`. The tests
    /// make thousands of files (each database and table is several), and a disk's file system spends most of the
    /// server's time finding room for them.
    /// Stops and removes the servers of test processes that were killed before they could stop theirs (a
    /// killed process runs no `atexit`): their folders name their process, which no longer exists.
    private static func stopServersOfDeadProcesses() {
        for parent in Set([parentFolder, "/tmp"]) {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? [] where name.hasPrefix("stillpoint-pg-") {
                let parts = name.split(separator: "-")
                guard parts.count >= 4, let pid = pid_t(parts[2]), pid > 0, kill(pid, 0) != 0, errno == ESRCH else { continue }
                let folder = parent + "/" + name
                try? run(binary("pg_ctl"), ["-D", folder + "/data", "-m", "immediate", "-w", "stop"])
                try? FileManager.default.removeItem(atPath: folder)
            }
        }
    }

    static var parentFolder: String {
        var isDirectory: ObjCBool = false
        let memory = "/dev/shm"
        return FileManager.default.fileExists(atPath: memory, isDirectory: &isDirectory) && isDirectory.boolValue
            && FileManager.default.isWritableFile(atPath: memory) ? memory : "/tmp"
    }

    /// The folders of the servers to stop at exit.
    private static let running = LockedPaths()

    final class LockedPaths: @unchecked Sendable {
        private let lock = NSLock()
        private var paths: [String] = []
        func withLock<T>(_ body: (inout [String]) -> T) -> T {
            lock.lock()
            defer { lock.unlock() }
            return body(&paths)
        }
    }

    /// A PostgreSQL server program: from `pg_config --bindir`'s usual place on Debian, else the `PATH`.
    static func binary(_ name: String) -> String {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            let path = "/usr/lib/postgresql/\(version)/bin/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return name
    }

    /// Runs a server program, as the `postgres` user when this process is root, and fails with its output.
    ///
    /// Waits on this thread: this runs inside a static initializer. The output goes to a file, since the server
    /// that `pg_ctl start` leaves running would hold a pipe open for ever.
    static func run(_ program: String, _ arguments: [String]) throws {
        let command = getuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", program] + arguments : [program] + arguments
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("stillpoint-pg-\(UUID().uuidString).log").path
        defer { unlink(log) }
        let child: ChildProcess
        do {
            child = try ChildProcess(command[0], Array(command.dropFirst()), standardOutput: .file(log), standardError: .standardOutput)
        } catch {
            throw ServerFailure(description: "cannot run \(command[0]): \(error)")
        }
        guard child.waitUntilExit() == .exited(0) else {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw ServerFailure(description: "\((program as NSString).lastPathComponent) failed: "
                                + text.split(whereSeparator: \.isNewline).suffix(3).joined(separator: " "))
        }
    }
}
