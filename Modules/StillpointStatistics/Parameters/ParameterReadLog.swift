import StillpointCore

/// The names of the parameters a statistic read while it was prepared.
///
/// ```swift
/// let log = ParameterReadLog()
/// var parameters = StatisticParameters(statistic: "session_count")
/// parameters.readLog = log
/// _ = try statistic.prepare(parameters)
/// log.names   // ["kinds", "minimum_duration", "as_of"]
/// ```
package final class ParameterReadLog: Sendable {
    private let state = LockedState<Set<String>>([])

    package init() {}

    package func record(_ name: String) {
        state.withLock { _ = $0.insert(name) }
    }

    package var names: Set<String> {
        state.withLock { $0 }
    }
}
