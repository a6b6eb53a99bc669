import Foundation
import Hummingbird
import HummingbirdTesting
import PracticeLog
import StillpointCore
import Testing
@testable import StillpointServer

/// `GET /v1/practitioners/{id}/report/events` on each store: the report now, then after a change, with
/// generations as ids; `Last-Event-ID` resumes; the cap on open streams; the stream ends when the practitioner goes.
@Suite("report event stream")
struct ReportEventRoutesTests {
    /// Waits until `condition` holds, for at most two minutes (the whole suite shares two cores).
    static func waitUntil(_ what: String, _ condition: () async throws -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while try await !condition() {
            guard ContinuousClock.now < deadline else { throw ServerTestFailure("waited two minutes for \(what)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The `id:` of each event of a stream's text.
    static func eventIDs(_ text: String) -> [Int64] {
        text.split(separator: "\n").compactMap { line in line.hasPrefix("id: ") ? Int64(line.dropFirst(4)) : nil }
    }

    @Test(arguments: ServerTestStore.kinds)
    func streamsTheReportThenEachChangeAndResumes(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind, configure: { $0.limits.maximumEventStreams = 2 }) { client, state in
            let token = try await client.addPractitioner("alice")
            let first = try #require(try await state.live.report(for: "alice")).generation
            async let fresh = client.send(.get, "/v1/practitioners/alice/report/events", token: token)
            async let resumed = client.send(.get, "/v1/practitioners/alice/report/events", token: token,
                                            headers: [ReportEventRoutes.lastEventID: "\(first)"])
            try await Self.waitUntil("two subscriptions") { state.live.metrics.subscriptions == 2 }
            let refused = try await client.send(.get, "/v1/practitioners/alice/report/events", token: token)
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.headers[.retryAfter] == "5")
            #expect(refused.problem?.detail.contains("event streams open already") == true)

            try await state.container.performBackgroundTask { context in
                let session = context.insert(Session.self)
                session[Session.start] = Date().addingTimeInterval(-3_600)
                session[Session.duration] = 1_200
                session[Session.key] = "alice-new"
                try session.set(Session.practitioner, to: try Practitioners.object("alice", in: context))
                try await context.save()
            }
            try await Self.waitUntil("a new generation") { try await state.live.report(for: "alice")?.generation ?? 0 > first }
            let second = try #require(try await state.live.report(for: "alice")).generation
            // Removing Alice ends her streams, so that their answers complete.
            #expect(try await client.send(.delete, "/v1/practitioners/alice", token: ServerTestStore.adminToken).status == .ok)

            let (freshAnswer, resumedAnswer) = try await (fresh, resumed)
            #expect(freshAnswer.status == .ok)
            #expect(freshAnswer.headers[.contentType] == "text/event-stream")
            #expect(Self.eventIDs(freshAnswer.text) == [first, second], "\(freshAnswer.text)")
            #expect(freshAnswer.text.hasPrefix("id: \(first)\ndata: {\n"))
            #expect(Self.eventIDs(resumedAnswer.text) == [second], "only what is newer than Last-Event-ID")
            // The slots are given back.
            try await Self.waitUntil("the slots back") { state.live.metrics.subscriptions == 0 }
        }
    }

    @Test func anUnknownPractitionerAndABadLastEventIDAreProblems() async throws {
        try await ServerTestStore.withServer(.sqlite, configure: { $0.limits.maximumEventStreams = 1 }) { client, state in
            let token = try await client.addPractitioner("alice")
            let bad = try await client.send(.get, "/v1/practitioners/alice/report/events", token: token,
                                            headers: [ReportEventRoutes.lastEventID: "yesterday"])
            #expect(bad.status == .badRequest)
            #expect(bad.problem?.detail.contains("Last-Event-ID 'yesterday'") == true)
            let other = try await client.send(.get, "/v1/practitioners/bob/report/events", token: ServerTestStore.adminToken)
            #expect(other.status == .notFound)
            // Neither took the one slot for good.
            async let open = client.send(.get, "/v1/practitioners/alice/report/events", token: token)
            try await Self.waitUntil("a subscription") { state.live.metrics.subscriptions == 1 }
            #expect(try await client.send(.delete, "/v1/practitioners/alice", token: ServerTestStore.adminToken).status == .ok)
            #expect(try await open.status == .ok)
        }
    }
}
