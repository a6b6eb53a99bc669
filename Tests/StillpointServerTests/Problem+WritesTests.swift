import Foundation
import Hummingbird
import PracticeLog
import StillpointCore
import StillpointPostgres
import Testing
@testable import StillpointServer

/// The problems of the write routes: each library error of a post as its status, and a store out of reach (or a
/// connection to it lost) as a 503 that says to try again.
@Suite("write problems")
struct ProblemWritesTests {
    static let request = Request(head: HTTPRequest(method: .post, scheme: "http", authority: "localhost", path: "/v1/practitioners/alice/sessions"),
                                 body: RequestBody(buffer: ByteBuffer()))

    @Test func aStoreOutOfReachIsA503WithRetryAfterAndOtherErrorsAreNot() throws {
        let unreachable = StoreError.serverUnreachable(path: "postgresql://db.example/practice", detail: "connection refused")
        let problem = try #require(Problem.storeUnavailable(unreachable, Self.request))
        #expect(problem.status == .serviceUnavailable)
        #expect(problem.headers[.retryAfter] == "5")
        #expect(problem.detail == "the store cannot be reached, so POST /v1/practitioners/alice/sessions saved nothing; try again shortly")
        let read = Request(head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/v1/practitioners/alice/sessions"),
                           body: RequestBody(buffer: ByteBuffer()))
        let lost = StoreError.connectionLost(path: "postgresql://db.example/practice", detail: "server closed the connection unexpectedly")
        #expect(Problem.storeUnavailable(lost, read)?.detail
                == "the store cannot be reached, so GET /v1/practitioners/alice/sessions could not be answered; try again shortly")
        #expect(Problem.storeUnavailable(StoreError.readOnly(path: "x"), Self.request) == nil)
        #expect(Problem.storeUnavailable(CancellationError(), Self.request) == nil)
    }

    @Test func eachPostedSessionsErrorHasItsStatus() {
        let cases: [(PostedSessionsError, HTTPResponse.Status)] = [
            (.tooLarge(bytes: 5 << 20, limit: 4 << 20), .contentTooLarge),
            (.tooMany(count: 10_001, limit: 10_000), .contentTooLarge),
            (.malformed("the body is not JSON"), .badRequest),
            (.badSessions(count: 1, of: 2, first: []), .unprocessableContent),
            (.noPractitioner("alice"), .notFound),
        ]
        for (error, status) in cases {
            #expect(Problem.posted(error, id: "alice").status == status, "\(error)")
        }
        #expect(Problem.posted(.noPractitioner("alice"), id: "alice").detail == Problem.noPractitioner("alice").detail)
    }
}
