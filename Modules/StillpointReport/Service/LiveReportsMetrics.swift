/// What ``LiveReports`` counts, for a server's `/metrics` and readiness check.
///
/// ```swift
/// let metrics = reports.metrics
/// print("hits \(metrics.cacheHits), misses \(metrics.cacheMisses), lag \(metrics.changeLogLag)")
/// ```
public struct LiveReportsMetrics: Sendable, Hashable {
    /// Requests answered from a report held in memory.
    public var cacheHits: Int
    /// Requests that had to make the report first (not held yet, or made on a day that has ended).
    public var cacheMisses: Int
    /// Reports made again because a change touched their practitioner (or the store came back).
    public var refreshes: Int
    /// The practitioners whose digests are held.
    public var digests: Int
    /// About how many bytes those digests take (their session columns; the caches built on them come on top).
    public var digestBytes: Int
    /// The reports held, one per practitioner and manifest, and the bytes of their rendered texts.
    public var reports: Int
    public var reportBytes: Int
    /// Open subscriptions (event streams).
    public var subscriptions: Int
    /// How many change sets the service has received from the store's change log and not yet applied to the
    /// reports it holds (a burst of commits being worked through).
    public var changeLogLag: Int
    /// Whether reports are served stale: the store could not be reached, or is being caught up with.
    public var isStale: Bool

    public init(cacheHits: Int = 0, cacheMisses: Int = 0, refreshes: Int = 0, digests: Int = 0, digestBytes: Int = 0,
                reports: Int = 0, reportBytes: Int = 0, subscriptions: Int = 0, changeLogLag: Int = 0, isStale: Bool = false) {
        self.cacheHits = cacheHits
        self.cacheMisses = cacheMisses
        self.refreshes = refreshes
        self.digests = digests
        self.digestBytes = digestBytes
        self.reports = reports
        self.reportBytes = reportBytes
        self.subscriptions = subscriptions
        self.changeLogLag = changeLogLag
        self.isStale = isStale
    }
}
