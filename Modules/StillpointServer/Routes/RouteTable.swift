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

    /// Each route with its template's segments, split once: every request's metrics look its route up.
    private let registered = LockedState<[(route: Route, segments: [Substring])]>([])

    public init() {}

    /// The routes registered, in the order they were.
    public var routes: [Route] { registered.withLock { $0.map(\.route) } }

    /// Registers `handler` for `method` on `path` with `router`, and records it.
    public func add<Context: RequestContext>(_ method: HTTPRequest.Method, _ path: String, on router: Router<Context>,
                                             handler: @escaping @Sendable (Request, Context) async throws -> Response) {
        registered.withLock { $0.append((Route(method: method, path: path), path.split(separator: "/", omittingEmptySubsequences: false))) }
        router.on(RouterPath(path), method: method, use: handler)
    }

    /// The methods the routes whose template matches `path` answer; empty when none does.
    func methods(matching path: String) -> [HTTPRequest.Method] {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        var methods: [HTTPRequest.Method] = []
        for (route, template) in registered.withLock({ $0 }) where Self.matches(template, segments) && !methods.contains(route.method) {
            methods.append(route.method)
        }
        return methods
    }

    /// The template of the route `method` on `path` is answered by, for a metric's label; `nil` when none is.
    func template(matching path: String, method: HTTPRequest.Method) -> String? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        return registered.withLock { registered in
            registered.first { $0.route.method == method && Self.matches($0.segments, segments) }?.route.path
        }
    }

    private static func matches(_ parts: [Substring], _ segments: [Substring]) -> Bool {
        guard parts.count == segments.count else { return false }
        return zip(parts, segments).allSatisfy { part, segment in
            part.hasPrefix(":") ? !segment.isEmpty : part == segment
        }
    }
}
