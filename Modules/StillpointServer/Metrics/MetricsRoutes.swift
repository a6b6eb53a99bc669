import Foundation
import Hummingbird

/// `GET /metrics`: the server's request counts and latencies, then its reports' metrics (cache hits, digests in
/// memory and their bytes, change-log lag, staleness), in Prometheus' text format. Open like `/healthz`: it names
/// no practitioner; bind the loopback address or filter it at the proxy to keep it in.
enum MetricsRoutes {
    static let mediaType = "text/plain; version=0.0.4; charset=utf-8"

    static func add(to router: Router<BasicRequestContext>, _ state: ServerState) {
        state.routes.add(.get, "/metrics", on: router) { _, _ in
            let text = state.requestMetrics.prometheusText + state.live.metrics.prometheusText
            return Response(status: .ok, headers: [.contentType: mediaType, .cacheControl: "no-store"],
                            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        }
    }
}
