import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
@testable import StillpointServer

/// `GET /metrics` on each store: requests by route template and status with latency histograms, then the reports'
/// metrics; a path no route matches is counted as `unmatched`, not by its text.
@Suite("metrics route")
struct MetricsRoutesTests {
    @Test(arguments: ServerTestStore.kinds)
    func countsRequestsByRouteAndShowsTheReports(_ kind: ServerTestStore.Kind) async throws {
        try await ServerTestStore.withServer(kind) { client, _ in
            let token = try await client.addPractitioner("alice")
            for _ in 0..<2 { #expect(try await client.send(.get, "/v1/practitioners/alice/report", token: token).status == .ok) }
            #expect(try await client.send(.get, "/v1/practitioners/bob/report", token: ServerTestStore.adminToken).status == .notFound)
            #expect(try await client.send(.get, "/nowhere", token: token).status == .notFound)
            let response = try await client.send(.get, "/metrics")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == MetricsRoutes.mediaType)
            let text = response.text
            let route = #"method="GET",route="/v1/practitioners/:id/report""#
            #expect(text.contains("stillpoint_http_requests_total{\(route),status=\"200\"} 2\n"), "\(text)")
            #expect(text.contains("stillpoint_http_requests_total{\(route),status=\"404\"} 1\n"))
            #expect(text.contains(#"stillpoint_http_requests_total{method="POST",route="/v1/practitioners",status="201"} 1"#))
            #expect(text.contains(#"route="unmatched",status="404"} 1"#))
            #expect(!text.contains("nowhere"))
            #expect(text.contains("stillpoint_http_request_duration_seconds_count{\(route)} 3\n"))
            #expect(text.contains("stillpoint_http_request_duration_seconds_bucket{\(route),le=\"+Inf\"} 3\n"))
            #expect(text.contains("stillpoint_report_cache_hits_total 1\n"))
            #expect(text.contains("stillpoint_reports 1\n"))
            #expect(text.contains("stillpoint_digests 1\n"))
        }
    }

    @Test func labelValuesAreEscaped() {
        #expect(RequestMetrics.escaped(#"a"b\c"# + "\n") == #"a\"b\\c\n"#)
    }
}
