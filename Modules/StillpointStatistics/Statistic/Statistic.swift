import StillpointCore

/// A statistic of a practice log: a stable id, a description, and a computation that runs in a background
/// context through the core's fetch requests (SQL aggregates and cursors), never by loading every session.
///
/// ```swift
/// struct SessionCount: Statistic {
///     let id = "session_count"
///     let description = StatisticDescription(name: "Sessions", summary: "The number of qualifying sessions.")
///
///     func prepare(_ parameters: StatisticParameters) throws -> PreparedStatistic {
///         let filter = try SessionFilter(parameters)
///         return PreparedStatistic { context in
///             .init(.quantity(Double(try context.count(for: filter.request())), .count))
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
