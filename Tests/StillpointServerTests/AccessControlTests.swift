import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import StillpointServer

/// Who may see what, on each store: a practitioner's token reaches their routes only, another's id answers as
/// one that is not there, byte for byte; the administrator's token manages and reads; no token is a 401.
@Suite("access control")
struct AccessControlTests {
    static let admin = ServerTestStore.adminToken

    @Test(arguments: ServerTestStore.kinds)
    func anotherPractitionersIdAnswersExactlyAsOneThatIsNotThere(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, _ in
            let alice = try await client.addPractitioner("alice")
            _ = try await client.addPractitioner("bob")
            #expect(try await client.send(.get, "/v1/practitioners/alice/report", token: alice).status == .ok)
            // Bob is there, and alice may not see him; "bobby" is not there. Their answers differ only by the id.
            let bob = try await client.send(.get, "/v1/practitioners/bob/report", token: alice)
            let nobody = try await client.send(.get, "/v1/practitioners/bob/report?format=json", token: Self.admin)
            #expect(bob.status == .notFound)
            #expect(nobody.status == .ok, "the administrator reads bob's report")
            let removedBob = try await client.send(.delete, "/v1/practitioners/bob", token: Self.admin)
            #expect(removedBob.status == .ok)
            let gone = try await client.send(.get, "/v1/practitioners/bob/report", token: alice)
            let goneForAdmin = try await client.send(.get, "/v1/practitioners/bob/report", token: Self.admin)
            #expect(gone.status == .notFound)
            #expect(Array(buffer: gone.body) == Array(buffer: bob.body), "\(gone.text) \(bob.text)")
            #expect(Array(buffer: goneForAdmin.body) == Array(buffer: bob.body))
            #expect(gone.headers[.contentType] == bob.headers[.contentType])
            #expect(bob.text.contains("there is no practitioner 'bob'"))
        }
    }

    @Test(arguments: ServerTestStore.kinds)
    func aMissingOrBadTokenIs401WithAChallenge(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, _ in
            let alice = try await client.addPractitioner("alice")
            let cases: [HTTPFields] = [
                [:],
                [.authorization: "Bearer"],
                [.authorization: "Basic \(Data("alice:\(alice)".utf8).base64EncodedString())"],
                [.authorization: "Bearer \(alice)x"],
                [.authorization: "Bearer \(String(alice.dropLast()))"],
            ]
            for headers in cases {
                for uri in ["/v1/practitioners/alice/report", "/v1/practitioners/nobody/report", "/v1/practitioners"] {
                    let response = try await client.send(.get, uri, headers: headers)
                    #expect(response.status == .unauthorized, "\(uri) \(headers)")
                    #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
                    #expect(response.problem?.status == 401)
                }
            }
            // The scheme's case does not matter.
            #expect(try await client.send(.get, "/v1/practitioners/alice/report", headers: [.authorization: "bearer \(alice)"]).status == .ok)
        }
    }

    @Test(arguments: ServerTestStore.kinds)
    func administrationNeedsTheAdministratorsToken(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, _ in
            let alice = try await client.addPractitioner("alice")
            let routes: [(HTTPRequest.Method, String, String?)] = [
                (.get, "/v1/practitioners", nil), (.post, "/v1/practitioners", #"{"id": "eve"}"#),
                (.post, "/v1/practitioners/alice/token", nil), (.delete, "/v1/practitioners/alice", nil),
            ]
            for (method, uri, body) in routes {
                let asAlice = try await client.send(method, uri, token: alice, body: body)
                #expect(asAlice.status == .forbidden, "\(method) \(uri)")
                #expect(asAlice.problem?.detail.contains("is the administrator's") == true)
                #expect(try await client.send(method, uri, body: body).status == .unauthorized)
            }
            #expect(try await client.send(.get, "/v1/practitioners/alice/report", token: alice).status == .ok, "alice keeps her token")
        }
    }

    @Test func withoutAnAdministratorTokenAdministrationIsClosed() async throws {
        try await ServerTestStore.withServer(.sqlite, configure: { $0.adminToken = nil }) { client, _ in
            let response = try await client.send(.get, "/v1/practitioners", token: Self.admin)
            #expect(response.status == .forbidden)
            #expect(response.problem?.detail.contains("STILLPOINT_ADMIN_TOKEN") == true)
        }
    }

    @Test func tokenHashesCompareEveryByte() throws {
        let hash = TokenHash(of: "token")
        #expect(hash.hex.count == 64)
        #expect(TokenHash(hex: hash.hex) == hash)
        #expect(hash.matches(TokenHash(of: "token")))
        #expect(!hash.matches(TokenHash(of: "token ")))
        #expect(TokenHash(hex: String(repeating: "g", count: 64)) == nil)
        #expect(TokenHash(hex: "ab") == nil)
    }

    @Test func tokensAreRandomAndUrlSafe() {
        let tokens = (0..<100).map { _ in PractitionerTokens.make() }
        #expect(Set(tokens).count == 100)
        #expect(tokens.allSatisfy { $0.count == 43 && !$0.contains("+") && !$0.contains("/") && !$0.contains("=") })
    }
}
