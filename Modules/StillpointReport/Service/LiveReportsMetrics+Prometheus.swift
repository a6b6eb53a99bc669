extension LiveReportsMetrics {
    /// The metrics in Prometheus' text exposition format (version 0.0.4), each with its help and type lines, for a
    /// server's `GET /metrics` beside its own request metrics.
    ///
    /// ```swift
    /// body = serverMetrics + reports.metrics.prometheusText
    /// // # HELP stillpoint_report_cache_hits_total Report requests answered from memory.
    /// // # TYPE stillpoint_report_cache_hits_total counter
    /// // stillpoint_report_cache_hits_total 1520
    /// // ...
    /// ```
    public var prometheusText: String {
        let samples: [(name: String, type: String, help: String, value: Int)] = [
            ("stillpoint_report_cache_hits_total", "counter", "Report requests answered from memory.", cacheHits),
            ("stillpoint_report_cache_misses_total", "counter", "Report requests that had to make the report first.", cacheMisses),
            ("stillpoint_report_refreshes_total", "counter", "Reports made again because a change touched their practitioner.", refreshes),
            ("stillpoint_digests", "gauge", "Practitioners whose session digests are held in memory.", digests),
            ("stillpoint_digest_bytes", "gauge", "Approximate bytes of the session digests held in memory.", digestBytes),
            ("stillpoint_reports", "gauge", "Reports held in memory, one per practitioner and manifest.", reports),
            ("stillpoint_report_bytes", "gauge", "Bytes of the rendered reports held in memory.", reportBytes),
            ("stillpoint_report_subscriptions", "gauge", "Open report subscriptions (event streams).", subscriptions),
            ("stillpoint_change_log_lag", "gauge", "Change sets received from the change log and not yet applied to the reports.", changeLogLag),
            ("stillpoint_reports_stale", "gauge", "1 while reports are served stale (the store unreachable or being caught up with).", isStale ? 1 : 0),
        ]
        return samples.map { "# HELP \($0.name) \($0.help)\n# TYPE \($0.name) \($0.type)\n\($0.name) \($0.value)\n" }.joined()
    }
}
