import Foundation
import ServiceLifecycle
import StillpointReport

/// Shuts the server's ``LiveReports`` down when a graceful shutdown begins, before the HTTP server waits for its
/// requests in flight: an event stream is such a request, and it ends only when its subscription does.
///
/// ```swift
/// ServiceGroup(services: [app, LiveReportsService(live: state.live)], ...)   // the last is told first
/// ```
struct LiveReportsService: Service {
    let live: LiveReports

    func run() async throws {
        // Returns on graceful shutdown, throws on cancellation: either way the reports stop.
        try? await gracefulShutdown()
        await live.shutdown()
    }
}
