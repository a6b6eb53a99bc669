/// What a session-time statistic does with a session longer than `maximum_duration`.
///
/// ```swift
/// let handling = try parameters.choice("outliers", as: OutlierHandling.self) ?? .cap
/// ```
public enum OutlierHandling: String, Sendable, Hashable, CaseIterable {
    /// Count the session as `maximum_duration` long.
    case cap
    /// Count the session in full, and say so in the notes.
    case flag
    /// Leave the session out.
    case drop
}
