import Foundation
import StillpointPostgresTestSupport
import Testing
@testable import StillpointServer

/// Two `stillpoint-server` processes over one PostgreSQL database, as behind a load balancer: a session posted to
/// one is in the other's report and event stream, which follow the change log by `NOTIFY`.
@Suite("several stillpoint-server instances", .enabled(if: PostgresTestServer.isWanted))
struct ServerInstancesTests {
    /// A post of one session an hour ago, with `key`.
    static func sessions(key: String) -> Data {
        let start = ISO8601DateFormatter().string(from: Date().addingTimeInterval(-3_600))
        return Data(#"[{"start": "\#(start)", "duration": 600, "kind": "yoga", "key": "\#(key)"}]"#.utf8)
    }

    @Test func aSessionPostedToOneInstanceIsInTheReportAndEventStreamOfTheOther() async throws {
        let store = try ServerTestStore.makeStore(.postgres)
        let first = try await RunningServer.start(store: store)
        defer { first.stop() }
        let second = try await RunningServer.start(store: store)
        defer { second.stop() }
        let token = try await first.addPractitioner("alice")

        // The second instance holds the report, and streams it.
        let before = try await second.send("GET", "/v1/practitioners/alice/report", token: token)
        #expect(before.status == 200)
        #expect(TestReport.sessionCount(before.body) == 0)
        let stream = try RawHTTPConnection(port: second.port)
        try stream.send("GET /v1/practitioners/alice/report/events HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n\r\n")
        #expect(stream.read(seconds: 120) { _ in TestReport.events(stream.chunkedBody.body).count == 1 }, "\(stream.text)")

        let posted = try await first.send("POST", "/v1/practitioners/alice/sessions", token: token, body: Self.sessions(key: "a1"))
        #expect(posted.status == 201, "\(posted.text)")

        #expect(stream.read(seconds: 120) { _ in TestReport.events(stream.chunkedBody.body).last.flatMap(TestReport.sessionCount) == 1 },
                "the second instance's stream: \(stream.chunkedBody.body)")
        var count: Int?
        let deadline = Date().addingTimeInterval(120)
        while count != 1, Date() < deadline {
            count = TestReport.sessionCount(try await second.send("GET", "/v1/practitioners/alice/report", token: token).body)
            if count != 1 { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(count == 1, "the second instance's report")
    }
}
