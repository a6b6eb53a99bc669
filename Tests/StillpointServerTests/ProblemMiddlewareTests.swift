import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import StillpointServer

/// Every error is an RFC 9457 problem: unknown routes, wrong methods, and what a route throws.
@Suite("problem answers")
struct ProblemMiddlewareTests {
    @Test func anUnknownRouteIsA404Problem() async throws {
        try await ServerTestStore.withServer(.sqlite) { client, _ in
            for uri in ["/nothing", "/v1", "/v1/practitioners/alice/report/extra", "/v2/practitioners", "/%2e%2e/etc/passwd"] {
                let response = try await client.send(.get, uri)
                #expect(response.status == .notFound, "\(uri)")
                let problem = try #require(response.problem, "\(uri): \(response.text)")
                #expect(problem.type == "about:blank")
                #expect(problem.title == "Not Found")
                #expect(problem.status == 404)
                #expect(problem.instance == uri)
                #expect(problem.detail.contains("there is no route GET \(uri)"))
            }
        }
    }

    @Test func aWrongMethodIsA405NamingTheRightOnes() async throws {
        try await ServerTestStore.withServer(.sqlite) { client, _ in
            let response = try await client.send(.put, "/v1/practitioners")
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == "POST, GET")
            #expect(response.problem?.detail.contains("/v1/practitioners does not answer PUT") == true)
            let report = try await client.send(.delete, "/v1/practitioners/alice/report")
            #expect(report.status == .methodNotAllowed)
            #expect(report.headers[.allow] == "GET")
            let health = try await client.send(.post, "/healthz", body: "{}")
            #expect(health.status == .methodNotAllowed)
        }
    }

    @Test func aProblemBodyHasItsFiveMembers() throws {
        let body = Problem(.conflict, "it \"clashes\"").body(instance: "/v1/x")
        let json = try #require(String(data: body.encoded, encoding: .utf8))
        #expect(json == #"{"detail":"it \"clashes\"","instance":"/v1/x","status":409,"title":"Conflict","type":"about:blank"}"#)
    }
}
