import Foundation
import Hummingbird
import HummingbirdTesting
import PracticeLog
import StillpointCore
import Testing
@testable import StillpointServer

/// The administrator's routes on each store: add (with the one showing of the token), replace a token, remove,
/// list; every refusal a problem.
@Suite("administration routes")
struct AdministrationRoutesTests {
    static let admin = ServerTestStore.adminToken

    @Test(arguments: ServerTestStore.kinds)
    func addingAPractitionerHandsOutAStoredOnlyAsAHashToken(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, state in
            let response = try await client.send(.post, "/v1/practitioners", token: Self.admin,
                                                 body: #"{"id": "alice", "name": "Alice", "time_zone": "Europe/Berlin"}"#)
            #expect(response.status == .created)
            let issued = try JSONDecoder().decode(IssuedTokenBody.self, from: Data(buffer: response.body))
            #expect(issued.id == "alice")
            #expect(issued.token.count == 43, "32 bytes, base64url without padding")
            #expect(issued.token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            let stored = try await state.container.newBackgroundContext().perform { context in
                try context.fetch(FetchRequest(Practitioner.self)).map {
                    [$0[Practitioner.id], $0[Practitioner.name], $0[Practitioner.timeZone] ?? "", $0[Practitioner.tokenHash] ?? ""]
                }
            }
            #expect(stored == [["alice", "Alice", "Europe/Berlin", TokenHash(of: issued.token).hex]])

            let again = try await client.send(.post, "/v1/practitioners", token: Self.admin, body: #"{"id": "alice"}"#)
            #expect(again.status == .conflict)
            #expect(again.problem?.detail.contains("there is a practitioner 'alice' already") == true)
        }
    }

    @Test(arguments: ServerTestStore.kinds)
    func badIdsNamesAndZonesAreProblems(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, _ in
            let cases: [(String, String)] = [
                (#"{"id": ""}"#, "is empty"),
                (#"{"id": "a\u0007b"}"#, "holds a control character"),
                (#"{"id": "bob", "time_zone": "Mars/Olympus"}"#, "is not a time zone"),
                (#"{"id": 12}"#, "wrong type at 'id'"),
                (#"{"name": "Bob"}"#, "has no 'id'"),
                (#"{"id": "bob", "name": null, "time_zone": 4}"#, "wrong type at 'time_zone'"),
                ("{\"id\": \"bob\"", "is not JSON"),
                ("[1, 2]", "wrong type at the top level"),
                (#"{"id": "\#(String(repeating: "x", count: 201))"}"#, "longer than 200"),
            ]
            for (body, expected) in cases {
                let response = try await client.send(.post, "/v1/practitioners", token: Self.admin, body: body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.problem?.detail.contains(expected) == true, "\(body): \(response.text)")
                #expect(response.problem?.instance == "/v1/practitioners")
            }
            let empty = try await client.send(.post, "/v1/practitioners", token: Self.admin)
            #expect(empty.status == .badRequest)
            #expect(empty.problem?.detail.contains("needs a JSON body") == true)
        }
    }

    @Test func aBodyOverTheLimitIs413() async throws {
        try await ServerTestStore.withServer(.sqlite, configure: { $0.limits.maximumBodyBytes = 64 }) { client, _ in
            let response = try await client.send(.post, "/v1/practitioners", token: Self.admin,
                                                 body: #"{"id": "bob", "name": "\#(String(repeating: "b", count: 100))"}"#)
            #expect(response.status == .contentTooLarge)
            #expect(response.problem?.detail.contains("than the 64") == true, "\(response.text)")
        }
    }

    @Test(arguments: ServerTestStore.kinds)
    func replacingATokenStopsTheOldOne(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, _ in
            let old = try await client.addPractitioner("alice")
            #expect(try await client.send(.get, "/v1/practitioners/alice/report", token: old).status == .ok)
            let response = try await client.send(.post, "/v1/practitioners/alice/token", token: Self.admin)
            #expect(response.status == .created)
            let new = try JSONDecoder().decode(IssuedTokenBody.self, from: Data(buffer: response.body)).token
            #expect(new != old)
            #expect(try await client.send(.get, "/v1/practitioners/alice/report", token: old).status == .unauthorized)
            #expect(try await client.send(.get, "/v1/practitioners/alice/report", token: new).status == .ok)
            let missing = try await client.send(.post, "/v1/practitioners/nobody/token", token: Self.admin)
            #expect(missing.status == .notFound)
        }
    }

    @Test(arguments: ServerTestStore.kinds)
    func removingAPractitionerRemovesTheirSessions(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, state in
            let token = try await client.addPractitioner("alice")
            _ = try await client.addPractitioner("bob")
            try await DemoHistory(sessions: 30, years: 1, endingAt: Date(timeIntervalSince1970: 1_700_000_000))
                .write(to: state.container, practitioner: "alice")
            let response = try await client.send(.delete, "/v1/practitioners/alice", token: Self.admin)
            #expect(response.status == .ok)
            #expect(response.text == #"{"id":"alice","import_runs":0,"sessions":30}"#)
            let left = try await Practitioners.list(in: state.container).map(\.id)
            #expect(left == ["bob"])
            #expect(try await client.send(.get, "/v1/practitioners/alice/report", token: token).status == .unauthorized)
            #expect(try await client.send(.delete, "/v1/practitioners/alice", token: Self.admin).status == .notFound)
        }
    }

    @Test(arguments: ServerTestStore.kinds)
    func theListComesInPages(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, state in
            for id in ["carol", "alice", "bob"] { _ = try await client.addPractitioner(id, timeZone: id == "bob" ? "Asia/Tokyo" : nil) }
            try await DemoHistory(sessions: 5, years: 1, endingAt: Date(timeIntervalSince1970: 1_700_000_000))
                .write(to: state.container, practitioner: "bob")
            let first = try await client.send(.get, "/v1/practitioners?limit=2", token: Self.admin)
            #expect(first.status == .ok)
            #expect(first.text == #"{"next":"bob","practitioners":[{"id":"alice","name":"","sessions":0,"time_zone":null},"#
                    + #"{"id":"bob","name":"","sessions":5,"time_zone":"Asia/Tokyo"}]}"#)
            let second = try await client.send(.get, "/v1/practitioners?limit=2&after=bob", token: Self.admin)
            #expect(second.text == #"{"next":null,"practitioners":[{"id":"carol","name":"","sessions":0,"time_zone":null}]}"#)
            for bad in ["0", "1001", "x", "-1"] {
                let response = try await client.send(.get, "/v1/practitioners?limit=\(bad)", token: Self.admin)
                #expect(response.status == .badRequest, "limit=\(bad)")
            }
        }
    }
}
