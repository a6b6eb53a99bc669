/// What ``SessionDigest/catchUp(in:)`` did: brought the digest up to date, or found that it must be built again.
public enum DigestCatchUp: Sendable {
    case updated(DigestUpdate)
    /// The digest cannot catch up; `reason` says why, for the log.
    case rebuild(reason: String)
}
