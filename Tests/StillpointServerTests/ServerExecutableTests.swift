import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import StillpointCore
import Testing
@testable import StillpointServer

/// The built `stillpoint-server` as an operator runs it: on a free loopback port, it adds a practitioner, serves
/// their report, and exits 0 on SIGTERM, with no token in its log.
@Suite("stillpoint-server executable")
struct ServerExecutableTests {
    @Test func itServesAReportAndStopsCleanlyOnSIGTERM() async throws {
        let store = try ServerTestStore.makeStore(.sqlite)
        let process = try ToolProcess.process("stillpoint-server", ["--store", store, "--port", "0", "--log-level", "trace"],
                                              environment: [AdminToken.environmentVariable: ServerTestStore.adminToken])
        let log = LockedState(Data())
        let errorPipe = Pipe()
        process.standardError = errorPipe
        process.standardOutput = FileHandle.nullDevice
        errorPipe.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            log.withLock { $0.append(data) }
        }
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // The log says which port the system chose.
        var port: Int?
        let deadline = Date().addingTimeInterval(120)
        while port == nil, Date() < deadline, process.isRunning {
            let text = log.withLock { String(decoding: $0, as: UTF8.self) }
            port = text.firstMatch(of: /port=(\d+)/).flatMap { Int($0.1) }
            if port == nil { try await Task.sleep(for: .milliseconds(50)) }
        }
        let chosen = try #require(port, "the server never said its port: \(log.withLock { String(decoding: $0, as: UTF8.self) })")
        let base = "http://127.0.0.1:\(chosen)"

        var add = URLRequest(url: try #require(URL(string: "\(base)/v1/practitioners")))
        add.httpMethod = "POST"
        add.setValue("Bearer \(ServerTestStore.adminToken)", forHTTPHeaderField: "Authorization")
        add.setValue("application/json", forHTTPHeaderField: "Content-Type")
        add.httpBody = Data(#"{"id": "alice", "name": "Alice"}"#.utf8)
        let (added, addResponse) = try await URLSession.shared.data(for: add)
        #expect((addResponse as? HTTPURLResponse)?.statusCode == 201)
        let token = try JSONDecoder().decode(IssuedTokenBody.self, from: added).token

        var report = URLRequest(url: try #require(URL(string: "\(base)/v1/practitioners/alice/report?format=text")))
        report.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (body, reportResponse) = try await URLSession.shared.data(for: report)
        #expect((reportResponse as? HTTPURLResponse)?.statusCode == 200)
        #expect(!body.isEmpty)

        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        errorPipe.fileHandleForReading.readabilityHandler = nil
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        let text = log.withLock { String(decoding: $0, as: UTF8.self) } + String(decoding: errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(!text.contains(ServerTestStore.adminToken), "the log shows the administrator's token")
        #expect(!text.contains(token), "the log shows alice's token")
        #expect(text.contains("stopped"))
    }

    @Test func aStoreThatIsNotThereExits66() throws {
        let process = try ToolProcess.process("stillpoint-server", ["--store", "/nonexistent/store.sqlite", "--port", "0"])
        let errorPipe = Pipe()
        process.standardError = errorPipe
        try process.run()
        let message = String(decoding: errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 66, "\(message)")
        #expect(message.contains("/nonexistent/store.sqlite"))
    }

    @Test func aShortAdministratorTokenIsRefusedWithoutShowingIt() throws {
        let process = try ToolProcess.process("stillpoint-server", ["--port", "0"], environment: [AdminToken.environmentVariable: "hunter2"])
        let errorPipe = Pipe()
        process.standardError = errorPipe
        try process.run()
        let message = String(decoding: errorPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64, "\(message)")
        #expect(message.contains("shorter than 32 characters"))
        #expect(!message.contains("hunter2"))
    }
}
