import Foundation
import StillpointCore
import Testing
@testable import StillpointServer

/// The built `stillpoint-server` as an operator runs it, on a port the system chose on the loopback address,
/// its log gathered; ``stop()`` sends SIGTERM and waits for it (call it from a `defer` too: it does nothing twice).
///
/// ```swift
/// let server = try await ServerProcess.start(["--store", store])
/// defer { server.stop() }
/// let url = server.url("/healthz")
/// ```
final class ServerProcess {
    let process: Process
    /// `http://127.0.0.1:PORT`.
    let base: String
    private let errorPipe: Pipe
    private let gathered: LockedState<Data>

    private init(process: Process, base: String, errorPipe: Pipe, gathered: LockedState<Data>) {
        self.process = process
        self.base = base
        self.errorPipe = errorPipe
        self.gathered = gathered
    }

    /// Starts the server with `arguments` (and `--port 0`), the administrator's token of the tests in its
    /// environment, and waits until its log says its port.
    static func start(_ arguments: [String], environment: [String: String] = [:]) async throws -> ServerProcess {
        let process = try ToolProcess.process("stillpoint-server", arguments + ["--port", "0"],
                                              environment: [AdminToken.environmentVariable: ServerTestStore.adminToken].merging(environment) { $1 })
        let log = LockedState(Data())
        let errorPipe = Pipe()
        process.standardError = errorPipe
        process.standardOutput = FileHandle.nullDevice
        errorPipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            log.withLock { $0.append(data) }
        }
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline, process.isRunning {
            let text = log.withLock { String(decoding: $0, as: UTF8.self) }
            if let port = text.firstMatch(of: /port=(\d+)/).flatMap({ Int($0.1) }) {
                return ServerProcess(process: process, base: "http://127.0.0.1:\(port)", errorPipe: errorPipe, gathered: log)
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        errorPipe.fileHandleForReading.readabilityHandler = nil
        throw ServerTestFailure("the server never said its port: \(log.withLock { String(decoding: $0, as: UTF8.self) })")
    }

    /// The URL of `path` (with its query) on the server.
    func url(_ path: String) throws -> URL {
        try #require(URL(string: base + path))
    }

    /// SIGTERM, then waits for the process to end; the log is complete afterwards.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        process.waitUntilExit()
        guard errorPipe.fileHandleForReading.readabilityHandler != nil else { return }
        errorPipe.fileHandleForReading.readabilityHandler = nil
        let rest = errorPipe.fileHandleForReading.readDataToEndOfFile()
        gathered.withLock { $0.append(rest) }
    }

    /// What the server wrote to standard error so far.
    var log: String { gathered.withLock { String(decoding: $0, as: UTF8.self) } }
}
