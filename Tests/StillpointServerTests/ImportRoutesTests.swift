import Foundation
import Hummingbird
import HummingbirdTesting
import PracticeLog
import StillpointCore
import Testing
@testable import StillpointServer

/// `POST`, `GET /v1/practitioners/{id}/imports` and `DELETE .../imports/{run}` on each store: an export uploaded as
/// the body is imported as a run of the practitioner, listed and taken out; a body over the limit is a 413 that
/// imports nothing; another practitioner's runs answer exactly as runs that are not there.
@Suite("import routes")
struct ImportRoutesTests {
    static let uri = "/v1/practitioners/alice/imports"

    /// An Insight Timer export of `count` sessions, on days of March 2024.
    static func export(_ count: Int) -> String {
        var lines = ["Started At,Duration,Preset,Activity"]
        for day in 0..<count { lines.append(String(format: "03/%02d/2024 07:00:00,0:20:0,,PracticeType.Meditation", day + 1)) }
        return lines.joined(separator: "\n") + "\n"
    }

    struct Imported: Decodable {
        let run: Int64
        let inserted: Int
        let skipped: Int
        let complete: Bool
        let replaced_runs: [Int64]
    }

    struct Runs: Decodable {
        struct Run: Decodable {
            let id: Int64
            let file: String
            let format: String
            let state: String
            let inserted: Int
            let sessions: Int
        }
        let imports: [Run]
    }

    static func runs(_ response: TestResponse) throws -> [Runs.Run] {
        try JSONDecoder().decode(Runs.self, from: Data(buffer: response.body)).imports
    }

    static func sessionCount(_ state: ServerState, _ id: String) async throws -> Int {
        try await SessionPage.fetch(for: id, limit: SessionPage.maximumLimit, in: state.container).rows.count
    }

    @Test(arguments: ServerTestStore.kinds)
    func anUploadIsImportedListedAndTakenOut(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, state in
            let alice = try await client.addPractitioner("alice", timeZone: "Europe/Berlin")
            let bob = try await client.addPractitioner("bob")
            let response = try await client.send(.post, Self.uri + "?format=insight-timer&name=sessions.csv", token: alice, body: Self.export(4))
            #expect(response.status == .created, "\(response.text)")
            let imported = try JSONDecoder().decode(Imported.self, from: Data(buffer: response.body))
            #expect(imported.inserted == 4 && imported.skipped == 0 && imported.complete)
            // The same export again replaces the first run, and adds nothing.
            let again = try JSONDecoder().decode(Imported.self, from: Data(buffer: try await client.send(
                .post, Self.uri + "?format=insight-timer&name=sessions.csv", token: alice, body: Self.export(4)).body))
            #expect(again.inserted == 0)
            #expect(again.replaced_runs == [imported.run])
            let listed = try Self.runs(try await client.send(.get, Self.uri, token: alice))
            #expect(listed.map(\.id) == [again.run])
            #expect(listed.first?.file == "sessions.csv")
            #expect(listed.first?.format == "insight-timer")
            #expect(listed.first?.state == "complete")
            #expect(listed.first?.sessions == 4)
            #expect(try Self.runs(try await client.send(.get, "/v1/practitioners/bob/imports", token: bob)).isEmpty)
            // Wall-clock times of the export are in Alice's home zone.
            let page = try await SessionPage.fetch(for: "alice", limit: 1, in: state.container)
            #expect(page.rows.first?.start == ISOInstant.parse("2024-03-04T06:00:00Z"))
            let removed = try await client.send(.delete, Self.uri + "/\(again.run)", token: alice)
            #expect(removed.status == .ok, "\(removed.text)")
            #expect(removed.text == #"{"run":\#(again.run),"sessions_removed":4}"#)
            #expect(try await Self.sessionCount(state, "alice") == 0)
            #expect(try await client.send(.delete, Self.uri + "/\(again.run)", token: alice).status == .notFound)
        }
    }

    /// Bob's token on Alice's runs: her path answers as a practitioner not there; on his own path, her run's id is a run
    /// not there, byte for byte as once it is gone; nothing of hers changes.
    @Test(arguments: ServerTestStore.kinds)
    func anotherPractitionersRunsAnswerAsOnesThatAreNotThere(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, state in
            let alice = try await client.addPractitioner("alice")
            let bob = try await client.addPractitioner("bob")
            let imported = try JSONDecoder().decode(Imported.self, from: Data(buffer: try await client.send(
                .post, Self.uri + "?format=insight-timer", token: alice, body: Self.export(3)).body))
            for (method, path) in [(HTTPRequest.Method.get, Self.uri), (.delete, Self.uri + "/\(imported.run)"), (.post, Self.uri + "?format=insight-timer")] {
                let response = try await client.send(method, path, token: bob, body: method == .post ? Self.export(1) : nil)
                #expect(response.status == .notFound, "\(method) \(path)")
                #expect(response.text.contains("there is no practitioner 'alice'"))
            }
            let throughBob = try await client.send(.delete, "/v1/practitioners/bob/imports/\(imported.run)", token: bob)
            #expect(throughBob.status == .notFound)
            #expect(try await Self.sessionCount(state, "alice") == 3)
            #expect(try await client.send(.delete, Self.uri + "/\(imported.run)", token: alice).status == .ok)
            let gone = try await client.send(.delete, "/v1/practitioners/bob/imports/\(imported.run)", token: bob)
            #expect(Array(buffer: gone.body) == Array(buffer: throughBob.body), "\(gone.text) \(throughBob.text)")
        }
    }

    @Test(arguments: ServerTestStore.kinds)
    func aBodyOverTheLimitIsA413AndImportsNothing(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind, configure: { $0.limits.maximumImportBytes = 200 }) { client, state in
            let alice = try await client.addPractitioner("alice")
            let export = Self.export(20)
            // Told by Content-Length, and found while streaming (no length given).
            let told = try await client.send(.post, Self.uri + "?format=insight-timer", token: alice, body: export,
                                             headers: [.contentLength: "\(export.utf8.count)"])
            #expect(told.status == .contentTooLarge, "\(told.text)")
            let streamed = try await client.execute(uri: Self.uri + "?format=insight-timer", method: .post,
                                                    headers: [.authorization: "Bearer \(alice)", .transferEncoding: "chunked"],
                                                    body: ByteBuffer(string: export))
            #expect(streamed.status == .contentTooLarge, "\(streamed.text)")
            #expect(streamed.problem?.detail.contains("nothing was imported") == true)
            #expect(try Self.runs(try await client.send(.get, Self.uri, token: alice)).isEmpty)
            #expect(try await Self.sessionCount(state, "alice") == 0)
            let small = try await client.send(.post, Self.uri + "?format=insight-timer", token: alice, body: Self.export(2))
            #expect(small.status == .created, "\(small.text)")
        }
    }

    @Test(arguments: ServerTestStore.kinds)
    func badFormatsAndBodiesAreProblems(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, _ in
            let alice = try await client.addPractitioner("alice")
            let cases: [(String, String, HTTPResponse.Status, String)] = [
                ("", Self.export(1), .badRequest, "the query parameter format is missing"),
                ("?format=pdf", Self.export(1), .badRequest, "'pdf' is not an import format"),
                ("?format=../../etc/passwd", Self.export(1), .badRequest, "is not an import format"),
                ("?format=insight-timer", "name,age\nx,1\n", .unprocessableContent, "the body is not an Insight Timer export"),
                ("?format=apple-health", "not a zip", .unprocessableContent, "the body is not an Apple Health export"),
                ("?format=insight-timer&name=a%0Ab", Self.export(1), .badRequest, "control character"),
            ]
            for (query, body, status, detail) in cases {
                let response = try await client.send(.post, Self.uri + query, token: alice, body: body)
                #expect(response.status == status, "\(query): \(response.text)")
                #expect(response.problem?.detail.contains(detail) == true, "\(query): \(response.text)")
            }
            for run in ["abc", "-1", "99999999999999999999999", "1.5"] {
                let response = try await client.send(.delete, Self.uri + "/\(run)", token: alice)
                #expect(response.status == .notFound, "\(run)")
            }
        }
    }
}
