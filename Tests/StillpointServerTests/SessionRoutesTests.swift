import Foundation
import Hummingbird
import HummingbirdTesting
import PracticeLog
import StillpointCore
import Testing
@testable import StillpointServer

/// `POST` and `GET /v1/practitioners/{id}/sessions` on each store: saved and paged, idempotent by key within one
/// practitioner, every wrong session a 422 naming its index and field with nothing saved, huge posts a 413, hostile
/// `where` text a 400, and another practitioner's id answered exactly as one that is not there.
@Suite("session routes")
struct SessionRoutesTests {
    static let uri = "/v1/practitioners/alice/sessions"
    static let three = """
        [{"start": "2024-03-05T07:30:00Z", "duration": 1200, "kind": "yoga", "key": "a"},
         {"start": "2024-03-06T07:30:00Z", "duration": 600, "kind": "meditation", "key": "b"},
         {"start": "2024-03-07T07:30:00", "duration": 900, "kind": "meditation", "key": "c"}]
        """

    struct Saved: Decodable, Equatable {
        let inserted: Int
        let updated: Int
        let unchanged: Int
        let keys: [String]
    }

    struct Page: Decodable {
        struct Row: Decodable {
            let id: Int64
            let start: String
            let duration: Double
            let kind: String
            let source: String
            let time_zone: String?
            let key: String
        }
        let sessions: [Row]
        let next: String?
    }

    static func page(_ response: TestResponse) throws -> Page {
        try JSONDecoder().decode(Page.self, from: Data(buffer: response.body))
    }

    @Test(arguments: ServerTestStore.kinds)
    func postedSessionsArePagedNewestFirstAndPostingAgainChangesNothing(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, _ in
            let alice = try await client.addPractitioner("alice", timeZone: "Europe/Berlin")
            let bob = try await client.addPractitioner("bob")
            let first = try await client.send(.post, Self.uri, token: alice, body: Self.three)
            #expect(first.status == .created, "\(first.text)")
            #expect(try JSONDecoder().decode(Saved.self, from: Data(buffer: first.body)) == Saved(inserted: 3, updated: 0, unchanged: 0, keys: ["a", "b", "c"]))
            let again = try await client.send(.post, Self.uri, token: alice, body: Self.three)
            #expect(again.status == .ok)
            #expect(try JSONDecoder().decode(Saved.self, from: Data(buffer: again.body)) == Saved(inserted: 0, updated: 0, unchanged: 3, keys: ["a", "b", "c"]))
            // Bob's key "a" is his own session.
            let bobs = try await client.send(.post, "/v1/practitioners/bob/sessions", token: bob,
                                             body: #"[{"start": "2024-03-08T07:30:00Z", "duration": 60, "kind": "yoga", "key": "a"}]"#)
            #expect(bobs.status == .created)
            let wholeAnswer = try await client.send(.get, Self.uri, token: alice)
            let whole = try Self.page(wholeAnswer)
            // The last page says so with a `null`, as the document requires, not by leaving `next` out.
            #expect(String(buffer: wholeAnswer.body).hasPrefix(#"{"next":null,"#))
            #expect(whole.sessions.map(\.key) == ["c", "b", "a"])
            #expect(whole.sessions.first?.start == "2024-03-07T06:30:00Z", "07:30 in Alice's home zone")
            #expect(whole.sessions.first?.time_zone == "Europe/Berlin")
            #expect(whole.sessions.last?.duration == 1_200)
            #expect(whole.next == nil)
            let firstPage = try Self.page(try await client.send(.get, Self.uri + "?limit=2", token: alice))
            #expect(firstPage.sessions.map(\.key) == ["c", "b"])
            let next = try #require(firstPage.next)
            let secondPage = try Self.page(try await client.send(.get, Self.uri + "?limit=2&before=\(next)", token: alice))
            #expect(secondPage.sessions.map(\.key) == ["a"])
            #expect(secondPage.next == nil)
            let yoga = try Self.page(try await client.send(.get, Self.uri + "?where=kind%20%3D%3D%20'yoga'", token: alice))
            #expect(yoga.sessions.map(\.key) == ["a"])
            let bobsPage = try Self.page(try await client.send(.get, "/v1/practitioners/bob/sessions", token: bob))
            #expect(bobsPage.sessions.map(\.duration) == [60])
        }
    }

    @Test(arguments: ServerTestStore.kinds)
    func aWrongSessionIsA422NamingItsIndexAndFieldAndNothingIsSaved(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, _ in
            let alice = try await client.addPractitioner("alice")
            let body = """
                [{"start": "2024-03-05T07:30:00Z", "duration": 1200, "kind": "yoga"},
                 {"start": "2024-03-06T07:30:00Z", "duration": "long", "kind": "yoga"},
                 {"start": "2024-02-30T07:30:00Z", "duration": 900, "kind": "yoga"}]
                """
            let response = try await client.send(.post, Self.uri, token: alice, body: body)
            #expect(response.status == .unprocessableContent)
            let problem = try #require(response.problem)
            #expect(problem.detail.contains("[1].duration is not a number of seconds"), "\(problem.detail)")
            #expect(problem.detail.contains("[2].start '2024-02-30T07:30:00Z' is not"), "\(problem.detail)")
            #expect(problem.detail.contains("nothing was saved"))
            #expect(problem.instance == Self.uri)
            #expect(try Self.page(try await client.send(.get, Self.uri, token: alice)).sessions.isEmpty)
        }
    }

    @Test(arguments: ServerTestStore.kinds)
    func badBodiesAndHugePostsAreProblemsNeverA5xx(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, _ in
            let alice = try await client.addPractitioner("alice")
            let many = "[" + Array(repeating: "{}", count: ImportLimits.maxPostedSessions + 1).joined(separator: ",") + "]"
            let huge = "[" + String(repeating: " ", count: ImportLimits.maxPostedBytes) + "]"
            let cases: [(String, HTTPResponse.Status, String)] = [
                (many, .contentTooLarge, "more than the \(ImportLimits.maxPostedSessions) one post may hold"),
                (huge, .contentTooLarge, "\(ImportLimits.maxPostedBytes)"),
                ("[{\"start\": ", .badRequest, "the body is not JSON"),
                ("{\"start\": \"2024-03-05T07:30:00Z\"}", .badRequest, "the body is not a JSON array"),
                ("", .badRequest, "JSON"),
                ("[1, [2], null]", .unprocessableContent, "[0] is not a JSON object"),
            ]
            for (body, status, detail) in cases {
                let response = try await client.send(.post, Self.uri, token: alice, body: body)
                #expect(response.status == status, "\(body.prefix(30)): \(response.text.prefix(300))")
                #expect(response.problem?.detail.contains(detail) == true, "\(response.text.prefix(300))")
            }
            #expect(try Self.page(try await client.send(.get, Self.uri, token: alice)).sessions.isEmpty)
        }
    }

    @Test(arguments: ServerTestStore.kinds)
    func hostileQueriesAre400s(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, _ in
            let alice = try await client.addPractitioner("alice")
            _ = try await client.send(.post, Self.uri, token: alice, body: Self.three)
            let deep = String(repeating: "(", count: 300) + "duration>0" + String(repeating: ")", count: 300)
            let queries: [(String, String)] = [
                ("where=kind%20==", "where \"kind ==\": expected a value after '==' at column 8"),
                ("where=practitioner.id%20==%20'bob'", "practitioner.id"),
                ("where=\(deep)", "nest more than"),
                ("where=kind%20==%20'a';%20DROP%20TABLE%20%22Session%22", "where"),
                ("where=kind%20MATCHES%20'(a%2B)%2B$'%20AND%20lenght%20>%201", "lenght"),
                ("limit=0", "limit 0 is out of range; use 1 to 500"),
                ("limit=501", "limit 501 is out of range"),
                ("limit=ten", "'ten' is not a whole number"),
                ("limit=99999999999999999999999", "is not a whole number"),
                ("before=yesterday", "before 'yesterday' is not a cursor"),
                ("before=1e999_1", "is not a cursor"),
            ]
            for (query, detail) in queries {
                let response = try await client.send(.get, Self.uri + "?" + query, token: alice)
                #expect(response.status == .badRequest, "\(query.prefix(40)): \(response.text.prefix(300))")
                #expect(response.problem?.detail.contains(detail) == true, "\(query.prefix(40)): \(response.text.prefix(300))")
            }
        }
    }

    /// Bob's token on Alice's sessions answers exactly as it does once Alice is gone, for a post and a page, and saves nothing.
    @Test(arguments: ServerTestStore.kinds)
    func anotherPractitionersSessionsAnswerAsOnesThatAreNotThere(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, _ in
            let alice = try await client.addPractitioner("alice")
            let bob = try await client.addPractitioner("bob")
            let posted = try await client.send(.post, Self.uri, token: bob, body: Self.three)
            let paged = try await client.send(.get, Self.uri + "?where=kind%20==%20'yoga'", token: bob)
            #expect(posted.status == .notFound)
            #expect(paged.status == .notFound)
            #expect(try Self.page(try await client.send(.get, Self.uri, token: alice)).sessions.isEmpty)
            #expect(try await client.send(.delete, "/v1/practitioners/alice", token: ServerTestStore.adminToken).status == .ok)
            let postedGone = try await client.send(.post, Self.uri, token: bob, body: Self.three)
            let pagedGone = try await client.send(.get, Self.uri + "?where=kind%20==%20'yoga'", token: bob)
            #expect(Array(buffer: postedGone.body) == Array(buffer: posted.body), "\(postedGone.text) \(posted.text)")
            #expect(Array(buffer: pagedGone.body) == Array(buffer: paged.body), "\(pagedGone.text) \(paged.text)")
            // The administrator finds no one there either, with the same answer.
            let forAdmin = try await client.send(.post, Self.uri, token: ServerTestStore.adminToken, body: Self.three)
            #expect(Array(buffer: forAdmin.body) == Array(buffer: posted.body))
        }
    }
}
