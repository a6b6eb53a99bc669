import StillpointReport
import Testing

/// The engine's metrics in Prometheus' text format (LiveReportsMetrics+Prometheus).
@Suite("live reports metrics for Prometheus")
struct LiveReportsMetricsPrometheusTests {
    @Test func eachMetricHasItsHelpTypeAndValue() {
        let metrics = LiveReportsMetrics(cacheHits: 12, cacheMisses: 3, refreshes: 4, digests: 2, digestBytes: 640, reports: 3,
                                         reportBytes: 9_000, subscriptions: 1, changeLogLag: 5, isStale: true)
        let lines = metrics.prometheusText.split(separator: "\n").map(String.init)
        #expect(lines.count == 30)
        #expect(lines.prefix(3) == [
            "# HELP stillpoint_report_cache_hits_total Report requests answered from memory.",
            "# TYPE stillpoint_report_cache_hits_total counter",
            "stillpoint_report_cache_hits_total 12",
        ])
        let samples = Dictionary(uniqueKeysWithValues: lines.filter { !$0.hasPrefix("#") }.map { line in
            let parts = line.split(separator: " ")
            return (String(parts[0]), String(parts[1]))
        })
        #expect(samples == [
            "stillpoint_report_cache_hits_total": "12", "stillpoint_report_cache_misses_total": "3",
            "stillpoint_report_refreshes_total": "4", "stillpoint_digests": "2", "stillpoint_digest_bytes": "640",
            "stillpoint_reports": "3", "stillpoint_report_bytes": "9000", "stillpoint_report_subscriptions": "1",
            "stillpoint_change_log_lag": "5", "stillpoint_reports_stale": "1",
        ])
        #expect(lines.filter { $0.hasPrefix("# TYPE") && $0.hasSuffix(" counter") }.allSatisfy { $0.contains("_total ") })
    }
}
