import Foundation
import Hummingbird
import HummingbirdTesting
@testable import StillpointServer

/// Requests as the tests send them: a bearer token, a body as text.
extension TestClientProtocol {
    func send(_ method: HTTPRequest.Method, _ uri: String, token: String? = nil, body: String? = nil,
              headers extra: HTTPFields = [:]) async throws -> TestResponse {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        if body != nil { headers[.contentType] = "application/json" }
        return try await execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    /// Adds the practitioner `id` as the administrator, and returns their token.
    func addPractitioner(_ id: String, name: String = "", timeZone: String? = nil) async throws -> String {
        let zone = timeZone.map { #", "time_zone": "\#($0)""# } ?? ""
        let response = try await send(.post, "/v1/practitioners", token: ServerTestStore.adminToken,
                                      body: #"{"id": "\#(id)", "name": "\#(name)"\#(zone)}"#)
        guard response.status == .created else { throw ServerTestFailure("adding \(id) answered \(response.status): \(String(buffer: response.body))") }
        return try JSONDecoder().decode(IssuedTokenBody.self, from: Data(buffer: response.body)).token
    }
}

/// The JSON of `POST /v1/practitioners`'s answer.
struct IssuedTokenBody: Decodable {
    let id: String
    let token: String
}

struct ServerTestFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

extension TestResponse {
    /// The problem body of an error answer, or `nil` when the body is none.
    var problem: ProblemBody? {
        guard headers[.contentType] == Problem.mediaType else { return nil }
        return try? JSONDecoder().decode(ProblemBody.self, from: Data(buffer: body))
    }

    var text: String { String(buffer: body) }
}
