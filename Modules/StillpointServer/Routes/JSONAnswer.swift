import Foundation
import Hummingbird

/// A JSON answer: a value encoded with sorted keys, with its content type.
///
/// ```swift
/// return try JSONAnswer.response(created, status: .created)
/// ```
public enum JSONAnswer {
    public static func response(_ value: some Encodable, status: HTTPResponse.Status = .ok,
                                headers: HTTPFields = [:]) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var headers = headers
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }
}
