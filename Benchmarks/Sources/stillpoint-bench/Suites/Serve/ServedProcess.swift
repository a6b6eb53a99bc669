import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A server the `serve` suite runs as a child process (`stillpoint-server`, or the hello-world baseline) on a
/// free loopback port, its log in a file; stopped by ``stop()``, or at the benchmark's exit at the latest.
///
/// ```swift
/// let server = try await ServedProcess.start(executable, ["--store", uri], ready: "/readyz", log: directory)
/// print(server.port, server.secondsToReady, server.residentMegabytes ?? 0)
/// server.stop()
/// ```
// Unchecked: Foundation's `Process` is not marked Sendable, but its methods may be called from any thread.
final class ServedProcess: @unchecked Sendable {
    let name: String
    let port: Int
    /// From the launch to the first 200 of the ready path.
    let secondsToReady: Double
    let log: URL
    private let process: Process

    private init(name: String, port: Int, secondsToReady: Double, log: URL, process: Process) {
        self.name = name
        self.port = port
        self.secondsToReady = secondsToReady
        self.log = log
        self.process = process
    }

    /// Launches `executable` with `arguments` (`{port}` in them replaced by the free port chosen) and waits until
    /// `GET readyPath` answers 200, for up to `timeout`.
    static func start(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], readyPath: String,
                      logIn directory: URL, timeout: Duration = .seconds(120)) async throws -> ServedProcess {
        let name = executable.lastPathComponent
        let port = try freePort()
        let log = directory.appendingPathComponent("\(name)-\(port).log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else { throw SessionBench.Failure("cannot create \(log.path)") }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments.map { $0.replacingOccurrences(of: "{port}", with: String(port)) }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = handle
        let clock = ContinuousClock()
        let launched = clock.now
        try process.run()
        running.withLock { _ = $0.insert(process.processIdentifier) }
        stopAtExit()
        let served = ServedProcess(name: name, port: port, secondsToReady: 0, log: log, process: process)
        while true {
            if let answer = try? LoopbackConnection(port: port).send("GET", readyPath), answer.status == 200 { break }
            guard process.isRunning else {
                throw SessionBench.Failure("\(name) exited with status \(process.terminationStatus) before it was ready: \(served.logText.suffix(2_000))")
            }
            guard clock.now - launched < timeout else {
                served.stop()
                throw SessionBench.Failure("\(name) was not ready within \(timeout): \(served.logText.suffix(2_000))")
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        let elapsed = (clock.now - launched).components
        return ServedProcess(name: name, port: port, secondsToReady: Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18,
                             log: log, process: process)
    }

    var processIdentifier: Int32 { process.processIdentifier }

    /// What the server wrote to its log so far.
    var logText: String {
        (try? String(contentsOf: log, encoding: .utf8)) ?? ""
    }

    /// The server's resident memory now (`VmRSS`), in MiB; `nil` where `/proc` cannot be read.
    var residentMegabytes: Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return line.dropFirst(6).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Double($0) }.map { $0 / 1024 }
        }
        return nil
    }

    /// Asks the server to stop (SIGTERM) and waits for it, killing it after 20 seconds.
    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        Self.running.withLock { _ = $0.remove(process.processIdentifier) }
    }

    /// The servers still running, killed when the benchmark exits (a failed workload leaves none behind).
    private static let running = Mutex<Set<Int32>>([])
    private static let exitHook = Mutex(false)

    private static func stopAtExit() {
        let first = exitHook.withLock { installed in
            defer { installed = true }
            return !installed
        }
        if first {
            atexit {
                for pid in ServedProcess.running.withLock({ $0 }) { kill(pid, SIGKILL) }
            }
        }
    }

    /// A port of the loopback address nothing listens on now (the system's choice for port 0).
    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw SessionBench.Failure("no socket to find a free port: errno \(errno)") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 ? getsockname(socket, address, &length) : -1
            }
        }
        guard bound == 0 else { throw SessionBench.Failure("no free port on 127.0.0.1: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
