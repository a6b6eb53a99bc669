import Foundation
import StillpointCore

/// The requests the server has answered, counted by method, route template and status, with a latency histogram
/// by method and route, written in Prometheus' text format for `GET /metrics`.
///
/// ```swift
/// metrics.record(method: "GET", route: "/v1/practitioners/:id/report", status: 200, seconds: 0.0004)
/// print(metrics.prometheusText)   // stillpoint_http_requests_total{method="GET",route="...",status="200"} 1
/// ```
final class RequestMetrics: Sendable {
    /// The upper bounds of the latency buckets, in seconds: from a report held in memory to one read from the store.
    static let buckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10]
    /// The route label of a request no route matched: its path is not a label, so that a client cannot grow the set.
    static let unmatched = "unmatched"

    private struct RouteKey: Hashable, Comparable {
        let method: String
        let route: String

        static func < (a: Self, b: Self) -> Bool { (a.route, a.method) < (b.route, b.method) }
    }

    private struct Latency {
        var buckets: [Int] = Array(repeating: 0, count: RequestMetrics.buckets.count)
        var count = 0
        var sum = 0.0

        mutating func record(_ seconds: Double) {
            for (index, bound) in RequestMetrics.buckets.enumerated() where seconds <= bound { buckets[index] += 1 }
            count += 1
            sum += seconds
        }
    }

    private struct State {
        var requests: [RouteKey: [Int: Int]] = [:]
        var latencies: [RouteKey: Latency] = [:]
    }

    private let state = LockedState(State())

    func record(method: String, route: String, status: Int, seconds: Double) {
        let key = RouteKey(method: method, route: route)
        state.withLock { state in
            state.requests[key, default: [:]][status, default: 0] += 1
            // In place: a copy taken out of the dictionary would copy its buckets on every request.
            state.latencies[key, default: Latency()].record(seconds)
        }
    }

    /// The counts and histograms in Prometheus' text exposition format (version 0.0.4).
    var prometheusText: String {
        let snapshot = state.withLock { $0 }
        var text = "# HELP stillpoint_http_requests_total Requests answered, by method, route and status.\n"
            + "# TYPE stillpoint_http_requests_total counter\n"
        for key in snapshot.requests.keys.sorted() {
            for (status, count) in (snapshot.requests[key] ?? [:]).sorted(by: { $0.key < $1.key }) {
                text += "stillpoint_http_requests_total{\(Self.labels(key)),status=\"\(status)\"} \(count)\n"
            }
        }
        text += "# HELP stillpoint_http_request_duration_seconds Time to answer a request, by method and route.\n"
            + "# TYPE stillpoint_http_request_duration_seconds histogram\n"
        for key in snapshot.latencies.keys.sorted() {
            guard let latency = snapshot.latencies[key] else { continue }
            let labels = Self.labels(key)
            for (bound, count) in zip(Self.buckets, latency.buckets) {
                text += "stillpoint_http_request_duration_seconds_bucket{\(labels),le=\"\(bound)\"} \(count)\n"
            }
            text += "stillpoint_http_request_duration_seconds_bucket{\(labels),le=\"+Inf\"} \(latency.count)\n"
            text += "stillpoint_http_request_duration_seconds_sum{\(labels)} \(latency.sum)\n"
            text += "stillpoint_http_request_duration_seconds_count{\(labels)} \(latency.count)\n"
        }
        return text
    }

    private static func labels(_ key: RouteKey) -> String {
        "method=\"\(escaped(key.method))\",route=\"\(escaped(key.route))\""
    }

    /// A label value as Prometheus reads it: backslash, quote and line feed escaped.
    static func escaped(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }
}
