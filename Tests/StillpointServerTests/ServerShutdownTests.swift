import Foundation
import StillpointChildProcess
import StillpointPostgresTestSupport
import Testing
@testable import StillpointServer

/// The built `stillpoint-server` stopped as a system stops it: SIGTERM lets a request in flight finish, ends the
/// event streams properly and exits 0; `kill -9` right after a post was acknowledged loses none of it.
@Suite("stillpoint-server shutdown")
struct ServerShutdownTests {
    /// Waits up to two minutes for `condition`, and returns whether it held.
    static func eventually(_ condition: () -> Bool) async -> Bool {
        let deadline = Date().addingTimeInterval(120)
        while !condition() {
            guard Date() < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    @Test func sigtermFinishesARequestInFlightEndsEventStreamsAndExits0() async throws {
        let server = try await RunningServer.start(store: try ServerTestStore.makeStore(.sqlite), ["--log-level", "debug"])
        defer { server.stop() }
        let token = try await server.addPractitioner("alice")

        let stream = try RawHTTPConnection(port: server.port)
        try stream.send("GET /v1/practitioners/alice/report/events HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n\r\n")
        #expect(stream.read(seconds: 120) { _ in TestReport.events(stream.chunkedBody.body).count == 1 }, "\(stream.text)")

        // A post whose body is half sent when the signal comes: the server has its head, and waits for the rest.
        let body = ServerInstancesTests.sessions(key: "in-flight")
        let half = body.count / 2
        let slow = try RawHTTPConnection(port: server.port)
        try slow.send("POST /v1/practitioners/alice/sessions HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(token)\r\n"
                      + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n")
        try slow.send(body.prefix(half))
        #expect(await Self.eventually {
            server.logText.split(separator: "\n").contains { $0.contains("hb.request.method=POST") && $0.contains("/v1/practitioners/alice/sessions") }
        },
                "the server never began the post: \(server.logText)")

        server.signal(SIGTERM)
        #expect(await Self.eventually { server.logText.contains("Signal caught. Shutting down the group.") }, "\(server.logText)")
        // The event stream ends with its last chunk, and the connection closes.
        #expect(stream.read(seconds: 120) { _ in stream.chunkedBody.isComplete }, "the event stream did not end: \(stream.text)")
        #expect(stream.readToEnd(seconds: 120))

        // The request in flight is answered.
        try slow.send(body.suffix(from: body.startIndex + half))
        #expect(slow.read(seconds: 120) { String(decoding: $0, as: UTF8.self).contains(#""keys""#) }, "\(slow.text)")
        #expect(slow.status == 201, "\(slow.text)")

        #expect(await server.waitForExit())
        server.stop()
        #expect(server.process.termination == .exited(0), "\(server.logText)")
        #expect(server.logText.contains("stopped"))
        #expect(!server.logText.contains(token), "the log shows alice's token")
    }

    @Test(arguments: ServerTestStore.kinds)
    func killMinus9RightAfterAnAcknowledgedPostLosesNothing(_ kind: ServerTestStore.Kind) async throws {
        let store = try ServerTestStore.makeStore(kind)
        let start = Date().addingTimeInterval(-86_400)
        let sessions = Data(("[" + (0..<3).map { index in
            #"{"start": "\#(ISO8601DateFormatter().string(from: start.addingTimeInterval(Double(index) * 3_600)))", "duration": 600, "kind": "yoga", "key": "k\#(index)"}"#
        }.joined(separator: ", ") + "]").utf8)

        let first = try await RunningServer.start(store: store)
        defer { first.stop() }
        let token = try await first.addPractitioner("alice")
        let posted = try await first.send("POST", "/v1/practitioners/alice/sessions", token: token, body: sessions)
        first.signal(SIGKILL)
        #expect(posted.status == 201, "\(posted.text)")
        #expect(await first.waitForExit())
        #expect(first.process.termination == .signalled(SIGKILL))

        let second = try await RunningServer.start(store: store)
        defer { second.stop() }
        let report = try await second.send("GET", "/v1/practitioners/alice/report", token: token)
        #expect(report.status == 200)
        #expect(TestReport.sessionCount(report.body) == 3, "\(report.text)")
        // The same keys again add nothing.
        let again = try await second.send("POST", "/v1/practitioners/alice/sessions", token: token, body: sessions)
        #expect(again.status == 200, "\(again.text)")
        #expect(again.text.contains(#""inserted":0"#), "\(again.text)")
        #expect(again.text.contains(#""unchanged":3"#), "\(again.text)")
        let page = try await second.send("GET", "/v1/practitioners/alice/sessions", token: token)
        #expect(page.text.components(separatedBy: #""key":"#).count - 1 == 3, "\(page.text)")
    }
}
