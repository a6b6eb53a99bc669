import Foundation
import Hummingbird
import Logging

/// Turns every error a route throws into a ``Problem`` answer: the route's own problems as they are, Hummingbird's
/// (an unknown route, a body over the limit) with a detail that says what to do, a path the router knows under
/// another method into a 405 with `Allow`, the store out of reach into a 503 with `Retry-After`, and anything else
/// into a 500 that says nothing of its cause (which is logged instead).
struct ProblemMiddleware<Context: RequestContext>: RouterMiddleware {
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let problem as Problem {
            return try problem.response(from: request, context: context)
        } catch let error as HTTPError {
            return try problem(for: error, request).response(from: request, context: context)
        } catch {
            // The store out of reach (a PostgreSQL server stopped or restarting) is a 503 to try again, whichever route
            // met it: a write saved nothing, and a read of something not held in memory cannot be answered yet.
            if let unavailable = Problem.storeUnavailable(error, request) {
                context.logger.warning("the store cannot be reached", metadata: ["path": "\(request.uri.path)", "error": "\(error)"])
                return try unavailable.response(from: request, context: context)
            }
            context.logger.error("request failed", metadata: ["path": "\(request.uri.path)", "error": "\(String(reflecting: type(of: error)))"])
            return try Problem(.internalServerError, "the server failed to answer \(request.method) \(request.uri.path); "
                               + "its log says why; try again, and report it if it persists").response(from: request, context: context)
        }
    }

    private func problem(for error: HTTPError, _ request: Request) -> Problem {
        let route = "\(request.method) \(request.uri.path)"
        switch error.status {
        case .notFound:
            let allowed = routes.methods(matching: request.uri.path)
            guard !allowed.isEmpty else {
                return Problem(.notFound, "there is no route \(route); the routes are listed in /openapi.json")
            }
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            return Problem(.methodNotAllowed, "\(request.uri.path) does not answer \(request.method); it answers \(allow)",
                           headers: [.allow: allow])
        case .contentTooLarge:
            return Problem(.contentTooLarge, "the body of \(route) is larger than the server accepts; send a smaller one")
        default:
            return Problem(error.status, error.body ?? "\(route) failed: \(error.status.reasonPhrase)")
        }
    }
}
