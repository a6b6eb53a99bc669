import Foundation
import StillpointCore
import StillpointStatistics

/// The `maximum_duration` and `outliers` parameters: which sessions are outliers and what to do with them.
///
/// ```swift
/// let limit = try DurationLimit(parameters)   // nil without maximum_duration
/// limit?.note(outlierCount: 2)                // "2 sessions longer than 4 h were capped at 4 h"
/// ```
public struct DurationLimit: Sendable, Hashable {
    /// Sessions strictly longer than this are outliers, in seconds.
    public var maximum: TimeInterval
    public var handling: OutlierHandling

    public init(maximum: TimeInterval, handling: OutlierHandling = .cap) {
        self.maximum = maximum
        self.handling = handling
    }

    /// The limit the parameters ask for, or `nil` when they give no `maximum_duration`.
    ///
    /// - Throws: ``ParameterError`` for a maximum that is not longer than 0 s, or for `outliers` without a
    ///   maximum (it would silently do nothing).
    public init?(_ parameters: StatisticParameters) throws {
        let handling = try parameters.choice("outliers", as: OutlierHandling.self)
        guard let maximum = try parameters.duration("maximum_duration") else {
            if handling != nil {
                throw ParameterError(
                    statistic: parameters.statistic, parameter: "outliers", location: parameters.values["outliers"]?.location,
                    message: "outliers needs maximum_duration to say which sessions are outliers; add e.g. maximum_duration: 4h")
            }
            return nil
        }
        guard maximum > 0 else {
            throw ParameterError(
                statistic: parameters.statistic, parameter: "maximum_duration",
                location: parameters.values["maximum_duration"]?.location,
                message: "expected a duration longer than 0 s, such as 4h, got '\(parameters.values["maximum_duration"]?.text ?? "")'")
        }
        self.init(maximum: maximum, handling: handling ?? .cap)
    }

    /// What was done, for the result's notes, e.g. "2 sessions longer than 4 h were capped at 4 h".
    public func note(outlierCount: Int) -> String {
        let limit = DurationText.describe(maximum)
        guard outlierCount > 0 else {
            switch handling {
            case .cap: return "no session was longer than \(limit), so none was capped"
            case .flag: return "no session was longer than \(limit), so none was flagged"
            case .drop: return "no session was longer than \(limit), so none was left out"
            }
        }
        let sessions = outlierCount == 1 ? "1 session longer than \(limit) was" : "\(outlierCount) sessions longer than \(limit) were"
        switch handling {
        case .cap: return "\(sessions) capped at \(limit)"
        case .flag: return "\(sessions) counted in full but flagged as " + (outlierCount == 1 ? "an outlier" : "outliers")
        case .drop: return "\(sessions) left out"
        }
    }
}
