import StillpointStatistics

extension ParameterDescription {
    /// The parameters of a session-time statistic: which sessions qualify, and what to do with outliers.
    /// Days play no part in them, so `time_zone` and `day_starts_at` are not among them.
    static let sessionTime: [ParameterDescription] = [.kinds, .minimumDuration, .asOf, .maximumDuration, .outliers]
}
