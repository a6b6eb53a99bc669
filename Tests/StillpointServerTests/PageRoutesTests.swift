import Foundation
import Hummingbird
import HummingbirdTesting
import StillpointCore
import Testing
@testable import StillpointServer

/// `GET /v1/practitioners/{id}` and `POST /v1/practitioners/{id}/cookie` on each store: the live page under a
/// Content-Security-Policy with a nonce of its own; the cookie that opens it reaches that practitioner's `GET`
/// routes of the page only; missing or bad credentials are problems.
@Suite("page route")
struct PageRoutesTests {
    static let admin = ServerTestStore.adminToken

    /// The nonce of a policy's `script-src 'nonce-…'`.
    static func nonce(of policy: String) -> String? {
        policy.firstMatch(of: /script-src 'nonce-([A-Za-z0-9+\/=]+)'/).map { String($0.1) }
    }

    /// The `Cookie` header a browser sends back for a `Set-Cookie` value: its first name=value pair.
    static func cookieHeader(_ setCookie: String) -> HTTPFields {
        [.cookie: String(setCookie.prefix { $0 != ";" })]
    }

    /// The `Set-Cookie` of posting `token` for `id`'s page, or the failed answer.
    static func postCookie(_ client: some TestClientProtocol, _ id: String, token: String, headers: HTTPFields = [:]) async throws -> TestResponse {
        try await client.send(.post, "/v1/practitioners/\(id)/cookie", body: #"{"token": "\#(token)"}"#, headers: headers)
    }

    @Test(arguments: ServerTestStore.kinds)
    func thePageIsTheHTMLReportWithItsOwnScriptUnderANonce(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, state in
            let token = try await client.addPractitioner("alice", name: "Alice")
            let page = try await client.send(.get, "/v1/practitioners/alice", token: token)
            #expect(page.status == .ok, "\(page.text)")
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.headers[.cacheControl] == "no-store")
            #expect(page.headers[.xContentTypeOptions] == "nosniff")
            let policy = try #require(page.headers[.contentSecurityPolicy])
            let nonce = try #require(Self.nonce(of: policy), "\(policy)")
            #expect(policy.contains("default-src 'none'") && policy.contains("connect-src 'self'"))
            #expect(page.text.contains("<script nonce=\"\(nonce)\">"))
            // One script, its own: none from elsewhere, and none without the nonce.
            #expect(page.text.components(separatedBy: "<script").count == 2)
            #expect(!page.text.contains("<script src"))
            #expect(page.text.contains(#"new EventSource("/v1/practitioners/alice/report/events""#))
            #expect(page.text.contains(#"fetch("/v1/practitioners/alice/report?format=html""#))
            // The report it starts from is the HTML report of the generation the script counts from.
            let report = try #require(try await state.live.report(for: "alice", format: .html))
            #expect(page.text.contains("let shown = \(report.generation);"))
            let main = try #require(report.body.range(of: "<main")).lowerBound
            #expect(page.text.contains(report.body[main...].prefix(200)))
            // Each page has a nonce of its own.
            let again = try await client.send(.get, "/v1/practitioners/alice", token: Self.admin)
            #expect(again.status == .ok)
            #expect(Self.nonce(of: again.headers[.contentSecurityPolicy] ?? "") != nonce)
        }
    }

    @Test(arguments: ServerTestStore.kinds)
    func theCookieOpensThatPractitionersPageOnly(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, state in
            let alice = try await client.addPractitioner("alice")
            let bob = try await client.addPractitioner("bob")
            let posted = try await Self.postCookie(client, "alice", token: alice)
            #expect(posted.status == .noContent, "\(posted.text)")
            let setCookie = try #require(posted.headers[.setCookie])
            #expect(setCookie == "stillpoint_token=\(alice); Path=/v1/practitioners/alice; HttpOnly; SameSite=Strict")
            let cookie = Self.cookieHeader(setCookie)

            for uri in ["/v1/practitioners/alice", "/v1/practitioners/alice/report?format=html", "/v1/practitioners/alice/report"] {
                let response = try await client.send(.get, uri, headers: cookie)
                #expect(response.status == .ok, "\(uri): \(response.text)")
            }
            // Another practitioner's page answers as one that is not there, with or without the cookie's path.
            for id in ["bob", "nobody"] {
                let response = try await client.send(.get, "/v1/practitioners/\(id)", headers: cookie)
                #expect(response.status == .notFound, "\(id)")
                #expect(response.problem?.detail == Problem.noPractitioner(id).detail)
            }
            #expect(try await client.send(.get, "/v1/practitioners/bob/report", headers: cookie).status == .notFound)
            // Not on a write, nor on a GET route the page does not need.
            let write = try await client.send(.post, "/v1/practitioners/alice/sessions",
                                              body: #"[{"start": "2024-01-01T08:00:00Z", "duration": 600, "kind": "yoga"}]"#, headers: cookie)
            #expect(write.status == .unauthorized, "\(write.text)")
            #expect(try await client.send(.get, "/v1/practitioners/alice/sessions", headers: cookie).status == .unauthorized)
            #expect(try await client.send(.get, "/v1/practitioners/alice/imports", headers: cookie).status == .unauthorized)
            #expect(try await client.send(.delete, "/v1/practitioners/alice", headers: cookie).status == .unauthorized)

            // Bob's own cookie opens his page, and is marked Secure behind a proxy that terminated TLS.
            let bobs = try await Self.postCookie(client, "bob", token: bob, headers: [PageCookie.forwardedProto: "https"])
            #expect(bobs.headers[.setCookie] == "stillpoint_token=\(bob); Path=/v1/practitioners/bob; HttpOnly; SameSite=Strict; Secure")
            let bobsCookie = Self.cookieHeader(bobs.headers[.setCookie] ?? "")
            #expect(try await client.send(.get, "/v1/practitioners/bob", headers: bobsCookie).status == .ok)
            // The event stream takes it too; removing Bob ends the stream, so that its answer completes.
            async let stream = client.send(.get, "/v1/practitioners/bob/report/events", headers: bobsCookie)
            try await ReportEventRoutesTests.waitUntil("bob's stream") { state.live.metrics.subscriptions == 1 }
            #expect(try await client.send(.delete, "/v1/practitioners/bob", token: Self.admin).status == .ok)
            let streamed = try await stream
            #expect(streamed.status == .ok)
            #expect(streamed.text.hasPrefix("id: "))

            // A replaced token's cookie stops working at once.
            #expect(try await client.send(.post, "/v1/practitioners/alice/token", token: Self.admin).status == .created)
            let replaced = try await client.send(.get, "/v1/practitioners/alice", headers: cookie)
            #expect(replaced.status == .unauthorized)
            #expect(replaced.problem?.detail.contains("cookie stillpoint_token") == true, "\(replaced.text)")
        }
    }

    @Test(arguments: ServerTestStore.kinds)
    func aCookieIsGivenForThePractitionersOwnTokenOnly(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, _ in
            let alice = try await client.addPractitioner("alice")
            _ = try await client.addPractitioner("bob")
            let cases: [(String, String, HTTPResponse.Status, String)] = [
                ("bob", alice, .notFound, "there is no practitioner 'bob'"),
                ("nobody", alice, .notFound, "there is no practitioner 'nobody'"),
                ("alice", Self.admin, .forbidden, "never the administrator's"),
                ("alice", alice + "x", .unauthorized, "is not valid"),
                ("alice", "", .unauthorized, "is not valid"),
            ]
            for (id, token, status, detail) in cases {
                let response = try await Self.postCookie(client, id, token: token)
                #expect(response.status == status, "\(id): \(response.text)")
                #expect(response.problem?.detail.contains(detail) == true, "\(id): \(response.text)")
                #expect(response.headers[.setCookie] == nil)
            }
            let form = try await client.execute(uri: "/v1/practitioners/alice/cookie", method: .post,
                                                headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: "token=\(alice)"))
            #expect(form.status == .unsupportedMediaType, "a form of another site cannot post it")
            #expect(form.problem?.detail.contains("Content-Type: application/json") == true)
            let notJSON = try await client.send(.post, "/v1/practitioners/alice/cookie", body: "token")
            #expect(notJSON.status == .badRequest)
            let noToken = try await client.send(.post, "/v1/practitioners/alice/cookie", body: "{}")
            #expect(noToken.problem?.detail.contains("has no 'token'") == true)
        }
    }

    @Test(arguments: ServerTestStore.kinds)
    func withoutCredentialsThePageIsA401Problem(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, _ in
            let alice = try await client.addPractitioner("alice")
            let cases: [HTTPFields] = [
                [:],
                [.authorization: "Bearer \(alice)x"],
                [.cookie: "stillpoint_token=\(alice)x"],
                [.cookie: "other=\(alice)"],
            ]
            for headers in cases {
                for uri in ["/v1/practitioners/alice", "/v1/practitioners/nobody", "/v1/practitioners/alice/report/events"] {
                    let response = try await client.send(.get, uri, headers: headers)
                    #expect(response.status == .unauthorized, "\(uri) \(headers)")
                    #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
                    #expect(response.problem?.status == 401)
                    #expect(response.problem?.instance == uri)
                }
            }
            let none = try await client.send(.get, "/v1/practitioners/alice")
            #expect(none.problem?.detail.contains("post {\"token\": TOKEN} as JSON to /v1/practitioners/alice/cookie") == true, "\(none.text)")
        }
    }

    /// `a%21b` and `a!b` name one practitioner, but a browser sends a cookie only to the path spelled as the cookie's.
    @Test func aPageAskedWithTheIdSpelledOtherwiseIsRedirectedToTheCookiesPath() async throws {
        try await ServerTestStore.withServer(.sqlite) { client, _ in
            let token = try await client.addPractitioner("a!b c")
            let redirected = try await client.send(.get, "/v1/practitioners/a%21b%20c?x=1")
            #expect(redirected.status == .permanentRedirect)
            #expect(redirected.headers[.location] == "/v1/practitioners/a!b%20c?x=1")
            let page = try await client.send(.get, "/v1/practitioners/a!b%20c", token: token)
            #expect(page.status == .ok, "\(page.text)")
        }
    }

    @Test func theCookiesPathIsThePractitionersOneSegment() {
        #expect(PageCookie.path(of: "alice") == "/v1/practitioners/alice")
        #expect(PageCookie.path(of: "ali ce/x;y,z%") == "/v1/practitioners/ali%20ce%2Fx%3By%2Cz%25")
    }
}
