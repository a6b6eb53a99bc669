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
        let server = try await ServerProcess.start(["--store", store, "--log-level", "trace"])
        defer { server.stop() }
        let base = server.base

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

        server.stop()
        #expect(server.process.terminationReason == .exit)
        #expect(server.process.terminationStatus == 0)
        let text = server.log
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
