import StillpointStatistics

/// What the digest operation of a report hands to the statistics that depend on it: the digest, and when it
/// caught up with a kept one rather than being built, what changed.
struct DigestPass: Sendable {
    let digest: SessionDigest
    /// `nil` when the digest was built by this run: nothing earlier can be reused.
    let update: DigestUpdate?
    /// The statistics computed in the digest's own operation (a practitioner's report), by their index in the report.
    var results: [Int: Result<StatisticResult, any Error>] = [:]
}
