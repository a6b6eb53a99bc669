import Foundation
import Hummingbird
import StillpointCore

/// Every route the server registers, with its method and path template, so that an unknown method on a known
/// path is a 405 naming the methods it answers, and a test can hold the OpenAPI document to the routes served.
///
/// Register a route through ``add(_:_:on:handler:)``, never on the router directly:
///
/// ```swift
/// routes.add(.get, "/v1/practitioners/:id/report", on: router) { request, context in ... }
/// ```
public final class RouteTable: Sendable {
    /// One registered route: `GET` and `/v1/practitioners/:id/report`.
    public struct Route: Hashable, Sendable, CustomStringConvertible {
        public let method: HTTPRequest.Method
        /// Hummingbird's form: `:name` for a parameter.
        public let path: String

        public var description: String { "\(method) \(path)" }

        /// The path as OpenAPI writes it: `{name}` for a parameter.
        public var openAPIPath: String {
            path.split(separator: "/", omittingEmptySubsequences: false)
                .map { $0.hasPrefix(":") ? "{\($0.dropFirst())}" : String($0) }
                .joined(separator: "/")
        }
    }

    private let registered = LockedState<[Route]>([])

    public init() {}

    /// The routes registered, in the order they were.
    public var routes: [Route] { registered.withLock { $0 } }

    /// Registers `handler` for `method` on `path` with `router`, and records it.
    public func add<Context: RequestContext>(_ method: HTTPRequest.Method, _ path: String, on router: Router<Context>,
                                             handler: @escaping @Sendable (Request, Context) async throws -> Response) {
        registered.withLock { $0.append(Route(method: method, path: path)) }
        router.on(RouterPath(path), method: method, use: handler)
    }

    /// The methods the routes whose template matches `path` answer; empty when none does.
    func methods(matching path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        var methods: [HTTPRequest.Method] = []
        for route in routes where Self.matches(route.path, segments) && !methods.contains(route.method) {
            methods.append(route.method)
        }
        return methods
    }

    private static func matches(_ template: String, _ segments: [Substring]) -> Bool {
        let parts = template.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == segments.count else { return false }
        return zip(parts, segments).allSatisfy { part, segment in
            part.hasPrefix(":") ? !segment.isEmpty : part == segment
        }
    }
}
