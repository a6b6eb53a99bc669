import Foundation
import StillpointChildProcess
import Testing
@testable import StillpointServer

/// The built `stillpoint-server` as an operator runs it: on a free loopback port, it adds a practitioner, serves
/// their report, and exits 0 on SIGTERM, with no token in its log; its options are checked.
@Suite("stillpoint-server executable")
struct ServerExecutableTests {
    @Test func itServesAReportAndStopsCleanlyOnSIGTERM() async throws {
        let server = try await RunningServer.start(store: try ServerTestStore.makeStore(.sqlite), ["--log-level", "trace"])
        defer { server.stop() }
        let token = try await server.addPractitioner("alice")

        let report = try await server.send("GET", "/v1/practitioners/alice/report?format=text", token: token)
        #expect(report.status == 200)
        #expect(!report.body.isEmpty)

        server.signal(SIGTERM)
        #expect(await server.waitForExit())
        #expect(server.process.termination == .exited(0))
        server.stop()
        let text = server.logText
        #expect(!text.contains(ServerTestStore.adminToken), "the log shows the administrator's token")
        #expect(!text.contains(token), "the log shows alice's token")
        #expect(text.contains("stopped"))
    }

    /// `--max-import-bytes` is the import's limit: a larger body is a 413 problem, and nothing is imported.
    @Test func anImportOverMaxImportBytesIsA413() async throws {
        let server = try await RunningServer.start(store: try ServerTestStore.makeStore(.sqlite), ["--max-import-bytes", "100"])
        defer { server.stop() }
        let token = try await server.addPractitioner("alice")
        let export = Data(("Started At,Duration,Preset,Activity\n" + String(repeating: "03/05/2024 07:30:00,0:10:00,,Meditation\n", count: 10)).utf8)
        let answer = try await server.send("POST", "/v1/practitioners/alice/imports?format=insight-timer", token: token, body: export)
        #expect(answer.status == 413, "\(answer.text)")
        #expect(answer.problem?.status == 413)
        #expect(answer.problem?.detail.contains("more than the 100 bytes an import may have") == true, "\(answer.text)")
        let runs = try await server.send("GET", "/v1/practitioners/alice/imports", token: token)
        #expect(runs.text == #"{"imports":[]}"#)
    }

    @Test func aMaxImportBytesOfZeroIsAUsageError() async throws {
        let result = try await ToolProcess.run(["--port", "0", "--max-import-bytes", "0"], tool: "stillpoint-server")
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains("--max-import-bytes must be a positive number of bytes"))
    }

    @Test func aStoreThatIsNotThereExits66() async throws {
        let result = try await ToolProcess.run(["--store", "/nonexistent/store.sqlite", "--port", "0"], tool: "stillpoint-server")
        #expect(result.status == 66, "\(result.standardError)")
        #expect(result.standardError.contains("/nonexistent/store.sqlite"))
    }

    @Test func aShortAdministratorTokenIsRefusedWithoutShowingIt() async throws {
        let result = try await ToolProcess.run(["--port", "0"], tool: "stillpoint-server", environment: [AdminToken.environmentVariable: "hunter2"])
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains("shorter than 32 characters"))
        #expect(!result.standardError.contains("hunter2"))
    }
}
