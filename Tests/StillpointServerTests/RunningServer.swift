import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StillpointChildProcess
@testable import StillpointServer

/// A built `stillpoint-server` running on a free loopback port over `store`, as an operator runs it: started, asked
/// over HTTP, signalled, and always stopped (``stop()`` kills what is left).
///
/// ```swift
/// let server = try await RunningServer.start(store: uri)
/// defer { server.stop() }
/// let answer = try await server.send("GET", "/healthz")
/// ```
final class RunningServer: Sendable {
    let process: ChildProcess
    let port: Int

    var base: String { "http://127.0.0.1:\(port)" }

    /// What the server wrote on standard error so far.
    var logText: String { process.collectedError }

    /// An answer: its status, headers (names in lower case) and body.
    struct Answer: Sendable {
        let status: Int
        let headers: [String: String]
        let body: Data

        var text: String { String(decoding: body, as: UTF8.self) }
        /// The problem body of an error answer, or `nil` when it is none.
        var problem: ProblemBody? {
            guard headers["content-type"] == Problem.mediaType else { return nil }
            return try? JSONDecoder().decode(ProblemBody.self, from: body)
        }
    }

    private init(process: ChildProcess, port: Int) {
        self.process = process
        self.port = port
    }

    /// Starts `stillpoint-server --store store --port 0` with `arguments`, the tests' administrator token, and waits
    /// (up to two minutes on a loaded machine) for the log line that names its port. Without `store`, the server
    /// opens the default store, in the folder of its own that ``ToolProcess`` gives it.
    static func start(store: String?, _ arguments: [String] = []) async throws -> RunningServer {
        let process = try ToolProcess.start("stillpoint-server", (store.map { ["--store", $0] } ?? []) + ["--port", "0"] + arguments,
                                            environment: [AdminToken.environmentVariable: ServerTestStore.adminToken], standardOutput: .null)
        func saidPort() -> Int? { process.collectedError.firstMatch(of: /port=(\d+)/).flatMap { Int($0.1) } }
        var port = saidPort()
        let deadline = Date().addingTimeInterval(120)
        // Looked at after each wait, the last one included: a test task that waited long for a thread of the pool
        // (the whole suite under load) finds the line the server wrote meanwhile, rather than fail with it in the log.
        while port == nil, Date() < deadline, process.isRunning {
            try await Task.sleep(for: .milliseconds(50))
            port = saidPort()
        }
        guard let port else {
            let server = RunningServer(process: process, port: 0)
            server.stop()
            throw ServerTestFailure("stillpoint-server never said its port: \(server.logText)")
        }
        return RunningServer(process: process, port: port)
    }

    /// The URL of `path` (with its query) on the server.
    func url(_ path: String) throws -> URL {
        guard let url = URL(string: base + path) else { throw ServerTestFailure("\(path) is not a path") }
        return url
    }

    /// Sends a request and returns the answer, whatever its status.
    func send(_ method: String, _ path: String, token: String? = nil, body: Data? = nil,
              headers: [String: String] = [:]) async throws -> Answer {
        var request = URLRequest(url: try url(path), timeoutInterval: 120)
        request.httpMethod = method
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw ServerTestFailure("\(method) \(path) got no HTTP answer") }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name.lowercased()] = value }
        }
        return Answer(status: http.statusCode, headers: fields, body: data)
    }

    /// Adds the practitioner `id` as the administrator, and returns their token.
    func addPractitioner(_ id: String) async throws -> String {
        let answer = try await send("POST", "/v1/practitioners", token: ServerTestStore.adminToken, body: Data(#"{"id": "\#(id)", "name": ""}"#.utf8))
        guard answer.status == 201 else { throw ServerTestFailure("adding \(id) answered \(answer.status): \(answer.text)") }
        return try JSONDecoder().decode(IssuedTokenBody.self, from: answer.body).token
    }

    /// Sends `signal` to the server.
    func signal(_ signal: Int32) {
        process.signal(signal)
    }

    /// Waits up to `seconds` for the server to exit, and returns whether it did.
    func waitForExit(seconds: Double = 120) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline {
            try? await Task.sleep(for: .milliseconds(50))
        }
        return !process.isRunning
    }

    /// Kills the server if it still runs, waits for it, and reads the rest of its log.
    func stop() {
        process.signal(SIGKILL)
        _ = process.waitForResult()
    }
}
