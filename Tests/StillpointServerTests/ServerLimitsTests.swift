import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import StillpointServer

/// The limits of a request: its time, and (on a real connection) its headers.
@Suite("server limits")
struct ServerLimitsTests {
    @Test func aRequestOverItsTimeIsA503AndItsWorkIsCancelled() async throws {
        try await ServerTestStore.withServer(.sqlite, configure: { $0.limits.requestTimeout = .nanoseconds(1) }) { client, state in
            let response = try await client.send(.get, "/v1/practitioners/me/report", token: ServerTestStore.adminToken)
            #expect(response.status == .serviceUnavailable)
            #expect(response.headers[.retryAfter] == "1")
            #expect(response.problem?.detail.contains("took longer than") == true)
        }
    }

    @Test func headersOverTheLimitAreRefusedOnARealConnection() async throws {
        var configuration = ServerConfiguration()
        configuration.store = try ServerTestStore.makeStore(.sqlite)
        configuration.port = 0
        configuration.limits.maximumHeaderBytes = 1_024
        let container = try await ServerStore.open(configuration.store, logger: .init(label: "limits"))
        defer { try? container.close() }
        let state = try ServerState(configuration: configuration, container: container, logger: .init(label: "limits"))
        try await ServerApplication.application(state).test(.live) { (client: any TestClientProtocol) async throws in
            // The live test client waits 20 s for an answer; the whole suite's load on two cores has taken longer.
            var healthy = false
            for _ in 0..<5 where !healthy {
                healthy = (try? await client.send(.get, "/healthz"))?.status == .ok
            }
            #expect(healthy)
            let refused: Bool
            do {
                let response = try await client.send(.get, "/healthz", headers: [.cookie: String(repeating: "p", count: 4_096)])
                refused = response.status.code >= 400 && response.status.code < 500
            } catch {
                refused = true   // the server closed the connection
            }
            #expect(refused, "a 4 KiB header passed a 1 KiB limit")
        }
    }
}
