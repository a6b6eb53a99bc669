import Foundation
import Hummingbird

/// A request's JSON body, read up to the server's limit and decoded, or a 4xx problem that says what is wrong
/// with it and where.
///
/// ```swift
/// let new = try await JSONRequestBody.decode(NewPractitioner.self, from: request, limit: state.configuration.limits.maximumBodyBytes)
/// ```
public enum JSONRequestBody {
    public static func decode<Value: Decodable>(_ type: Value.Type, from request: Request, limit: Int) async throws -> Value {
        let route = "\(request.method) \(request.uri.path)"
        let data = try await bytes(of: request, limit: limit)
        guard !data.isEmpty else {
            throw Problem(.badRequest, "\(route) needs a JSON body; send one with `Content-Type: application/json`")
        }
        do {
            return try JSONDecoder().decode(Value.self, from: data)
        } catch let error as DecodingError {
            throw Problem(.badRequest, "the JSON body of \(route) \(Self.describe(error))")
        }
    }

    /// The body of `request`, read up to `limit` bytes, or a 413 when it is longer (by its `Content-Length`, before
    /// a byte is read, or as it arrives).
    ///
    /// ```swift
    /// let body = try await JSONRequestBody.bytes(of: request, limit: ImportLimits.maxPostedBytes)
    /// ```
    public static func bytes(of request: Request, limit: Int) async throws -> Data {
        let route = "\(request.method) \(request.uri.path)"
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw Problem(.contentTooLarge, "the body of \(route) is \(length) bytes, more than the \(limit) this server accepts; send a smaller one")
        }
        do {
            return Data(buffer: try await request.body.collect(upTo: limit))
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw Problem(.contentTooLarge, "the body of \(route) is more than the \(limit) bytes this server accepts; send a smaller one")
        }
    }

    /// What is wrong, and where: `"has no 'id'"`, `"has a number at 'name' where a string belongs"`.
    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.isEmpty ? "the top level" : "'" + codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".") + "'"
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "has no '\(key.stringValue)'" + (context.codingPath.isEmpty ? "" : " in \(path(context.codingPath))") + "; add it"
        case .typeMismatch(let type, let context):
            return "has a value of the wrong type at \(path(context.codingPath)): \(Self.kind(of: type)) belongs there"
        case .valueNotFound(let type, let context):
            return "has null at \(path(context.codingPath)), where \(Self.kind(of: type)) belongs"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "is not JSON; send a JSON object"
                : "has a value that is not valid at \(path(context.codingPath))"
        @unknown default:
            return "cannot be read; send a JSON object"
        }
    }

    private static func kind(of type: Any.Type) -> String {
        switch type {
        case is String.Type, is String?.Type: "a string"
        case is Int.Type, is Double.Type, is Int64.Type: "a number"
        case is Bool.Type: "true or false"
        default: "an array or object"
        }
    }
}
