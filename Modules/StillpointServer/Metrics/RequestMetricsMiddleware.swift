import Foundation
import Hummingbird

/// Records each request's method, route template, status and time in ``RequestMetrics``. It runs outside the
/// problem middleware, so that an error is counted with the status it is answered with.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: RequestMetrics
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let route = routes.template(matching: request.uri.path, method: request.method) ?? RequestMetrics.unmatched
        do {
            let response = try await next(request, context)
            record(request, route, status: response.status.code, since: started)
            return response
        } catch let error as any HTTPResponseError {
            record(request, route, status: error.status.code, since: started)
            throw error
        } catch {
            record(request, route, status: 500, since: started)
            throw error
        }
    }

    private func record(_ request: Request, _ route: String, status: Int, since started: ContinuousClock.Instant) {
        let elapsed = (ContinuousClock.now - started).components
        metrics.record(method: request.method.rawValue, route: route, status: status,
                       seconds: Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18)
    }
}
