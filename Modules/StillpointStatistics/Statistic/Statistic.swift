import StillpointCore

/// A statistic of a practice log: a stable id, a description, and a computation.
///
/// Most statistics compute from the report's ``SessionDigest``: the sessions read once, in one scan, and summed
/// per filter, local day, hour, kind and source, shared by every statistic of the report. A statistic that needs
/// what the digest does not hold fetches it in a background context of its own (see ``PreparedStatistic``).
///
/// ```swift
/// struct SessionCount: Statistic {
///     let id = "session_count"
///     let description = StatisticDescription(name: "Sessions", summary: "The number of qualifying sessions.")
///
///     func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
///         let filter = try SessionFilter(parameters)
///         let boundary = parameters.environment.dayBoundary
///         return PreparedStatistic(reading: filter) { digest in
///             .init(.quantity(Double(digest.sessions(filter, boundary: boundary).count), .count))
///         }
///     }
/// }
/// ```
public protocol Statistic: Sendable {
    /// The stable snake_case id that manifests name it by.
    var id: String { get }
    var description: StatisticDescription { get }
    /// Reads and checks the parameters, and returns the computation to run.
    ///
    /// - Throws: ``ParameterError`` for a parameter of the wrong type or value, with its place in the manifest.
    func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic
}
