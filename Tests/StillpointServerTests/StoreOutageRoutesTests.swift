import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import StillpointCore
import StillpointPostgresTestSupport
import Testing
@testable import StillpointServer

/// The routes while the PostgreSQL server is really stopped (a server of the test's own): reports held are served
/// from memory marked stale, to the administrator and to a practitioner whose token was accepted before; every
/// write answers 503 with `Retry-After` and a problem body; once the server is back, the first write succeeds and
/// the reports catch up.
@Suite("routes while the store is out of reach", .enabled(if: PostgresTestServer.isWanted))
struct StoreOutageRoutesTests {
    /// Waits up to two minutes for `condition`, and returns whether it held.
    static func eventually(_ condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = ContinuousClock.now + .seconds(120)
        while try await !condition() {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    @Test func readsAreServedStaleAndWritesAnswer503UntilPostgreSQLIsBack() async throws {
        let server = try PostgresTestServer.ownServer()
        defer { try? server.stop() }
        var configuration = ServerConfiguration()
        configuration.store = try server.makeDatabase("outage")
        configuration.adminToken = try AdminToken(ServerTestStore.adminToken, from: "the tests")
        configuration.limits.requestTimeout = .seconds(300)
        var logger = Logger(label: "stillpoint-server-tests")
        logger.logLevel = .warning
        let container = try await ServerStore.open(configuration.store, logger: logger)
        defer { try? container.close() }
        let state = try ServerState(configuration: configuration, container: container, logger: logger)
        do {
            try await ServerApplication.application(state).test(.router) { client in try await Self.exercise(client, state, server) }
        } catch {
            await state.live.shutdown()
            throw error
        }
        await state.live.shutdown()
    }

    private static func exercise(_ client: any TestClientProtocol, _ state: ServerState, _ server: PostgresTestServer) async throws {
        let token = try await client.addPractitioner("alice")
        let sessions = "/v1/practitioners/alice/sessions"
        #expect(try await client.send(.post, sessions, token: token, body: Self.sessions(key: "a1")).status == .created)
        let report = "/v1/practitioners/alice/report"
        #expect(try await Self.eventually { TestReport.sessionCount(Data(buffer: try await client.send(.get, report, token: token).body)) == 1 })

        try server.stop()
        #expect(await Self.eventually { state.live.isStale })
        for caller in [token, ServerTestStore.adminToken] {
            let stale = try await client.send(.get, report, token: caller)
            #expect(stale.status == .ok)
            #expect(stale.headers[ReportRoutes.staleHeader] == "true")
            #expect(TestReport.isStale(Data(buffer: stale.body)), "\(stale.text)")
            #expect(TestReport.sessionCount(Data(buffer: stale.body)) == 1)
        }
        let text = try await client.send(.get, report + "?format=text", token: token)
        #expect(text.status == .ok)
        #expect(text.headers[ReportRoutes.staleHeader] == "true")

        let admin = ServerTestStore.adminToken
        let writes: [(HTTPRequest.Method, String, String?, String?)] = [
            (.post, sessions, token, Self.sessions(key: "a2")),
            (.post, "/v1/practitioners/alice/imports?format=insight-timer", token, "Started At,Duration\n"),
            (.delete, "/v1/practitioners/alice/imports/1", token, nil),
            (.post, "/v1/practitioners", admin, #"{"id": "bob", "name": "Bob"}"#),
            (.post, "/v1/practitioners/alice/token", admin, nil),
            (.delete, "/v1/practitioners/alice", admin, nil),
        ]
        for (method, path, caller, body) in writes {
            let answer = try await client.send(method, path, token: caller, body: body)
            #expect(answer.status == .serviceUnavailable, "\(method) \(path): \(answer.text)")
            #expect(answer.headers[.retryAfter] == "5", "\(method) \(path)")
            #expect(answer.problem?.status == 503, "\(method) \(path): \(answer.text)")
            #expect(answer.problem?.detail.contains("the store cannot be reached") == true, "\(method) \(path): \(answer.text)")
        }

        try server.start()
        // The writer connects again by itself: the first write after the server is back is saved.
        let saved = try await client.send(.post, sessions, token: token, body: Self.sessions(key: "a2"))
        #expect(saved.status == .created, "\(saved.text)")
        #expect(try await Self.eventually {
            let answer = try await client.send(.get, report, token: token)
            return answer.headers[ReportRoutes.staleHeader] == nil && TestReport.sessionCount(Data(buffer: answer.body)) == 2
        }, "the report did not catch up with the store")
    }

    /// A post of one session an hour ago, with `key`.
    static func sessions(key: String) -> String {
        String(decoding: ServerInstancesTests.sessions(key: key), as: UTF8.self)
    }
}
