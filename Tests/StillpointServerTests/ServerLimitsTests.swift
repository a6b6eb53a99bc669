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

    /// The executable as an operator runs it, on a socket of its own: a request whose headers pass the limit
    /// (16 KiB by default) is refused, and the next connection is answered as usual.
    @Test func headersOverTheLimitAreRefusedOnARealConnection() async throws {
        let server = try await RunningServer.start(store: try ServerTestStore.makeStore(.sqlite))
        defer { server.stop() }
        let oversized = try RawHTTPConnection(port: server.port)
        try oversized.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\nCookie: \(String(repeating: "p", count: 32 << 10))\r\n\r\n")
        oversized.read(seconds: 60) { String(decoding: $0, as: UTF8.self).contains("\r\n\r\n") }
        let refused = oversized.status.map { (400..<500).contains($0) } ?? oversized.isClosedByServer
        #expect(refused, "32 KiB of headers passed the 16 KiB limit: \(oversized.text.prefix(200))")

        let ordinary = try RawHTTPConnection(port: server.port)
        try ordinary.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        #expect(ordinary.readToEnd(seconds: 60))
        #expect(ordinary.status == 200, "\(ordinary.text.prefix(200))")
    }
}
