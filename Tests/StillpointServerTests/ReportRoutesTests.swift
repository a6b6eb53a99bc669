import Foundation
import Hummingbird
import HummingbirdTesting
import PracticeLog
import StillpointCore
import Testing
@testable import StillpointServer

/// `GET /v1/practitioners/{id}/report` on each store: the tool's bytes, in every format and with a named
/// manifest; an ETag that makes an unchanged report a 304; bad parameters as problems.
@Suite("report route")
struct ReportRoutesTests {
    static let asOf = "2023-11-14T22:13:20Z"
    static let end = Date(timeIntervalSince1970: 1_700_000_000)

    /// Alice's demo history and Bob's, so that a report that read past Alice's sessions would show it.
    static func fill(_ state: ServerState) async throws {
        try await DemoHistory(sessions: 120, years: 1, endingAt: end).write(to: state.container, practitioner: "alice")
        try await DemoHistory(sessions: 50, years: 1, endingAt: end, seed: 7).write(to: state.container, practitioner: "bob")
    }

    @Test(arguments: ServerTestStore.kinds)
    func theReportIsTheToolsBytesInEveryFormat(_ kind: ServerTestStore.Kind) async throws {
        let configDirectory = try ToolProcess.scratchDirectory()
        try FileManager.default.copyItem(at: ToolProcess.repository.appendingPathComponent("Config/examples/yoga-only.yaml"),
                                         to: configDirectory.appendingPathComponent("yoga-only.yaml"))
        try await ServerTestStore.withServer(kind, configure: { $0.configDirectory = configDirectory }) { client, state in
            let token = try await client.addPractitioner("alice", name: "Alice")
            _ = try await client.addPractitioner("bob")
            try await Self.fill(state)
            let store = try #require(state.configuration.store)
            for format in ["json", "html", "markdown", "csv", "text"] {
                let response = try await client.send(.get, "/v1/practitioners/alice/report?format=\(format)&as_of=\(Self.asOf)", token: token)
                #expect(response.status == .ok, "\(format): \(response.text)")
                let tool = try await ToolProcess.run(["report", "--store", store, "--practitioner", "alice", "--format", format, "--as-of", Self.asOf])
                #expect(tool.status == 0, "\(tool.standardError)")
                #expect(Array(buffer: response.body) == Array(tool.standardOutput.utf8), "\(format)")
                #expect(response.headers[.cacheControl] == "no-cache")
            }
            let named = try await client.send(.get, "/v1/practitioners/alice/report?format=text&config=yoga-only&as_of=\(Self.asOf)", token: token)
            let tool = try await ToolProcess.run(["report", "--store", store, "--practitioner", "alice", "--format", "text", "--as-of", Self.asOf,
                                            "--config", configDirectory.appendingPathComponent("yoga-only.yaml").path])
            #expect(named.status == .ok)
            #expect(named.text == tool.standardOutput)
            let json = try await client.send(.get, "/v1/practitioners/alice/report?as_of=\(Self.asOf)", token: token)
            #expect(json.headers[.contentType] == "application/json", "JSON without a format")
        }
    }

    @Test(arguments: ServerTestStore.kinds)
    func anUnchangedReportIsA304(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, state in
            let token = try await client.addPractitioner("alice")
            try await Self.fill(state)
            let uri = "/v1/practitioners/alice/report?as_of=\(Self.asOf)"
            let first = try await client.send(.get, uri, token: token)
            let tag = try #require(first.headers[.eTag])
            let unchanged = try await client.send(.get, uri, token: token, headers: [.ifNoneMatch: "\"other\", \(tag)"])
            #expect(unchanged.status == .notModified)
            #expect(unchanged.headers[.eTag] == tag)
            #expect(unchanged.body.readableBytes == 0)
            // Bob's sessions are not Alice's report.
            try await state.container.performBackgroundTask { context in
                let session = context.insert(Session.self)
                session[Session.start] = Self.end.addingTimeInterval(-3_600)
                session[Session.duration] = 1_200
                session[Session.key] = "bob-new"
                try session.set(Session.practitioner, to: try Practitioners.object("bob", in: context))
                try await context.save()
            }
            #expect(try await client.send(.get, uri, token: token, headers: [.ifNoneMatch: tag]).status == .notModified)
            try await state.container.performBackgroundTask { context in
                let session = context.insert(Session.self)
                session[Session.start] = Self.end.addingTimeInterval(-3_600)
                session[Session.duration] = 1_200
                session[Session.key] = "alice-new"
                try session.set(Session.practitioner, to: try Practitioners.object("alice", in: context))
                try await context.save()
            }
            let changed = try await client.send(.get, uri, token: token, headers: [.ifNoneMatch: tag])
            #expect(changed.status == .ok)
            #expect(changed.headers[.eTag] != tag)
        }
    }

    @Test(arguments: ServerTestStore.kinds)
    func theHeldReportsETagIsItsGenerationAndFollowsTheStore(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, state in
            let token = try await client.addPractitioner("alice")
            try await Self.fill(state)
            let uri = "/v1/practitioners/alice/report?format=text"
            let first = try await client.send(.get, uri, token: token)
            let generation = try #require(try await state.live.report(for: "alice")).generation
            #expect(first.headers[.eTag] == "\"\(generation)-text\"")
            #expect(first.headers[ReportRoutes.staleHeader] == nil)
            #expect(try await client.send(.get, uri, token: token, headers: [.ifNoneMatch: "\"\(generation)-text\""]).status == .notModified)
            #expect(try await client.send(.get, "/v1/practitioners/alice/report", token: token,
                                          headers: [.ifNoneMatch: "\"\(generation)-text\""]).status == .ok, "another format, another tag")
            try await state.container.performBackgroundTask { context in
                let session = context.insert(Session.self)
                session[Session.start] = Date().addingTimeInterval(-3_600)
                session[Session.duration] = 1_200
                session[Session.key] = "alice-today"
                try session.set(Session.practitioner, to: try Practitioners.object("alice", in: context))
                try await context.save()
            }
            // The server follows the change log: without another request's help, the held report moves on.
            try await ReportEventRoutesTests.waitUntil("the report of the new session") {
                try await client.send(.get, uri, token: token, headers: [.ifNoneMatch: "\"\(generation)-text\""]).status == .ok
            }
            let changed = try await client.send(.get, uri, token: token)
            #expect(changed.headers[.eTag] != first.headers[.eTag])
            #expect(changed.text != first.text)
        }
    }

    @Test(arguments: ServerTestStore.kinds)
    func badParametersAndPathTricksAreProblems(_ kind: ServerTestStore.Kind) async throws {
        let configDirectory = try ToolProcess.scratchDirectory()
        // A manifest beside the config folder, which no name may reach.
        try FileManager.default.copyItem(at: ToolProcess.repository.appendingPathComponent("Config/examples/yoga-only.yaml"),
                                         to: configDirectory.deletingLastPathComponent().appendingPathComponent("outside-\(UUID().uuidString).yaml"))
        try await ServerTestStore.withServer(kind, configure: { $0.configDirectory = configDirectory }) { client, _ in
            let token = try await client.addPractitioner("alice")
            let cases: [(String, HTTPResponse.Status, String)] = [
                ("format=pdf", .badRequest, "is not a report format"),
                ("format=", .badRequest, "is not a report format"),
                ("as_of=2023-02-30", .badRequest, "is not an instant that exists"),
                ("as_of=yesterday", .badRequest, "is not an instant that exists"),
                ("config=../outside", .badRequest, "is not a manifest's name"),
                ("config=%2e%2e%2foutside", .badRequest, "is not a manifest's name"),
                ("config=a/b", .badRequest, "is not a manifest's name"),
                ("config=..", .badRequest, "is not a manifest's name"),
                ("config=", .badRequest, "is not a manifest's name"),
                ("config=%00", .badRequest, "is not a manifest's name"),
                ("config=nope", .notFound, "there is no manifest 'nope'"),
            ]
            for (query, status, detail) in cases {
                let response = try await client.send(.get, "/v1/practitioners/alice/report?\(query)", token: token)
                #expect(response.status == status, "\(query): \(response.text)")
                #expect(response.problem?.detail.contains(detail) == true, "\(query): \(response.text)")
            }
            let encoded = try await client.send(.get, "/v1/practitioners/al%zzice/report", token: token)
            #expect(encoded.status == .badRequest)
        }
    }

    @Test func withoutAConfigFolderANamedManifestIsNotFound() async throws {
        try await ServerTestStore.withServer(.sqlite) { client, _ in
            let token = try await client.addPractitioner("alice")
            let response = try await client.send(.get, "/v1/practitioners/alice/report?config=yoga-only", token: token)
            #expect(response.status == .notFound)
            #expect(response.problem?.detail.contains("no config folder") == true)
        }
    }

    @Test func aPercentEncodedIdNamesThePractitioner() async throws {
        try await ServerTestStore.withServer(.sqlite) { client, _ in
            let token = try await client.addPractitioner("ali ce")
            #expect(try await client.send(.get, "/v1/practitioners/ali%20ce/report", token: token).status == .ok)
        }
    }
}
