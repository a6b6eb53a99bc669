import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import StillpointServer

/// `/openapi.json` documents every route the server registers, and nothing it does not.
@Suite("OpenAPI document")
struct OpenAPIDocumentTests {
    @Test func everyRouteServedIsDocumentedAndNothingElse() async throws {
        try await ServerTestStore.withServer(.sqlite) { client, state in
            let registered = Set(state.routes.routes.map { "\($0.method.rawValue.lowercased()) \($0.openAPIPath)" })
            let documented = Set(OpenAPIDocument.operations.filter { !$0.planned }.map { "\($0.method) \($0.path)" })
            let planned = Set(OpenAPIDocument.operations.filter(\.planned).map { "\($0.method) \($0.path)" })
            #expect(registered.subtracting(documented).isEmpty, "served but not in the document: \(registered.subtracting(documented).sorted())")
            #expect(documented.subtracting(registered).isEmpty, "documented but not served: \(documented.subtracting(registered).sorted())")
            #expect(registered.intersection(planned).isEmpty, "served but still marked planned: \(registered.intersection(planned).sorted())")

            let response = try await client.send(.get, "/openapi.json")
            #expect(response.status == .ok)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            #expect(document["openapi"] as? String == "3.1.0")
            let paths = try #require(document["paths"] as? [String: [String: Any]])
            let served = Set(paths.flatMap { path, methods in methods.keys.map { "\($0) \(path)" } })
            #expect(served == registered)
        }
    }

    /// Problems go out as `application/problem+json`: an answer documented as a Problem in plain JSON would not
    /// match what the server sends (schemathesis's "undocumented Content-Type", as `.ci/api-fuzz` found).
    @Test func everyProblemIsDocumentedInTheProblemMediaType() throws {
        for operation in OpenAPIDocument.operations {
            for (status, answer) in operation.answers {
                for (type, content) in answer.content ?? [:] {
                    let reference = ((content as? [String: Any])?["schema"] as? [String: Any])?["$ref"] as? String
                    if reference == "#/components/schemas/Problem" {
                        #expect(type == Problem.mediaType, "\(operation.method) \(operation.path) \(status) documents a problem as \(type)")
                    }
                }
            }
        }
    }

    /// A JSON report and `/openapi.json` are objects, and an event of a stream has an id and data: documented as
    /// text they failed schemathesis's schema check in `.ci/api-fuzz`.
    @Test func mediaAnswersDocumentWhatTheyHold() {
        #expect(OpenAPIOperation.Answer.schema(of: "application/json")["type"] as? String == "object")
        #expect(OpenAPIOperation.Answer.schema(of: "text/event-stream")["required"] as? [String] == ["id", "data"])
        #expect(OpenAPIOperation.Answer.schema(of: "text/csv")["type"] as? String == "string")
    }

    @Test func everyReferenceResolves() throws {
        let data = OpenAPIDocument.json
        let text = try #require(String(data: data, encoding: .utf8))
        let schemas = Set(OpenAPIDocument.schemas.keys)
        for match in text.matches(of: /#\/components\/schemas\/([A-Za-z]+)/) {
            #expect(schemas.contains(String(match.1)), "\(match.1)")
        }
    }
}
