import Foundation
import Hummingbird

/// An error the server answers with an RFC 9457 `application/problem+json` body: what was wrong, where, and what
/// to do, in `detail`; the request's path as `instance`.
///
/// The `type` is `about:blank`, so `title` is the status's reason phrase: clients branch on `status`, people read
/// `detail`.
///
/// ```swift
/// throw Problem(.badRequest, "the query parameter format 'pdf' is not a report format; use one of: json, html")
/// ```
public struct Problem: Error, HTTPResponseError, Sendable {
    public let status: HTTPResponse.Status
    public let detail: String
    /// Headers the answer carries besides the content type (`WWW-Authenticate`, `Allow`, `Retry-After`).
    public let headers: HTTPFields

    public init(_ status: HTTPResponse.Status, _ detail: String, headers: HTTPFields = [:]) {
        self.status = status
        self.detail = detail
        self.headers = headers
    }

    /// The media type of a problem body.
    public static let mediaType = "application/problem+json"

    /// The body of the problem, for a request to `path`.
    public func body(instance path: String) -> ProblemBody {
        ProblemBody(type: "about:blank", title: status.reasonPhrase, status: status.code, detail: detail, instance: path)
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = Self.mediaType
        let bytes = body(instance: request.uri.path).encoded
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

/// The JSON of a ``Problem``, as RFC 9457 names its members.
public struct ProblemBody: Codable, Equatable, Sendable {
    public var type: String
    public var title: String
    public var status: Int
    public var detail: String
    public var instance: String

    /// The body's JSON, keys sorted so that equal problems are equal bytes.
    var encoded: Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Five strings and an integer always encode.
        return (try? encoder.encode(self)) ?? Data()
    }
}
