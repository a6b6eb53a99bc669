import Foundation
import Hummingbird
import Logging

/// The server's router: a debug log line per request, the metrics, the problem middleware, the request timeout, then
/// every route.
///
/// A route group of another concern adds itself here, through ``ServerState/routes``, so that it gets problem
/// answers and is held to the OpenAPI document.
///
/// ```swift
/// let app = Application(router: ServerRouter.make(state))
/// ```
public enum ServerRouter {
    public static func make(_ state: ServerState) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        // Each request's method and path as it starts (`--log-level debug`), never its headers: they carry tokens.
        router.add(middleware: LogRequestsMiddleware<BasicRequestContext>(.debug))
        router.add(middleware: RequestMetricsMiddleware<BasicRequestContext>(metrics: state.requestMetrics, routes: state.routes))
        router.add(middleware: ProblemMiddleware<BasicRequestContext>(routes: state.routes))
        router.add(middleware: RequestTimeoutMiddleware<BasicRequestContext>(timeout: state.configuration.limits.requestTimeout))
        HealthRoutes.add(to: router, state)
        AdministrationRoutes.add(to: router, state)
        ReportRoutes.add(to: router, state)
        ReportEventRoutes.add(to: router, state)
        PageRoutes.add(to: router, state)
        SessionRoutes.add(to: router, state)
        ImportRoutes.add(to: router, state)
        OpenAPIRoutes.add(to: router, state)
        MetricsRoutes.add(to: router, state)
        return router
    }
}
