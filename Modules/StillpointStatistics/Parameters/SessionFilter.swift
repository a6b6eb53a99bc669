import Foundation
import PracticeLog
import StillpointCore

/// Which sessions qualify for a statistic: its kinds, minimum duration, the report's date range, and
/// nothing that starts after `as_of`. It becomes the predicate of the statistic's fetch requests.
///
/// A store may hold rows no session can have (an old import stored an infinite duration): a session counts
/// only when its duration is a number in `0 < duration <= longestSession` (366 days) and its start is no
/// earlier than ``earliestStart`` (1900-01-01). The rest are left out of every statistic, so that sums,
/// averages and day counts stay finite and nothing in a report can overflow.
///
/// ```swift
/// let filter = try SessionFilter(parameters)
/// var request = filter.request()
/// request.properties = [.aggregate(.sum, of: "duration", as: "total")]
/// ```
public struct SessionFilter: Sendable, Hashable {
    public var kinds: [String]?
    /// Sessions must last at least this long; `nil` means longer than 0 s.
    public var minimumDuration: TimeInterval?
    public var from: Date?
    public var until: Date?
    public var asOf: Date

    /// The longest session a statistic counts, 366 days: a longer (or infinite) duration is a bad row, not
    /// practice. Generous on purpose, so that it never hides a session an importer accepted.
    public static let longestSession: TimeInterval = 366 * 86_400
    /// The earliest start a statistic counts, 1900-01-01T00:00:00Z: no practice log goes back further, and an
    /// earlier start (year 1, a timestamp of -1e300) is a bad row that would stretch every chart and trend
    /// over millennia, or make walking the days from it never end.
    public static let earliestStart = Date(timeIntervalSince1970: -2_208_988_800)

    public init(kinds: [String]? = nil, minimumDuration: TimeInterval? = nil, from: Date? = nil, until: Date? = nil, asOf: Date) {
        self.kinds = kinds
        self.minimumDuration = minimumDuration
        self.from = from
        self.until = until
        self.asOf = asOf
    }

    /// The filter of a statistic's parameters: its own `kinds`, `minimum_duration` and `as_of`, else the report's.
    ///
    /// - Throws: ``ParameterError`` for a negative `minimum_duration`, which would admit bad rows.
    public init(_ parameters: StatisticParameters) throws {
        let minimumDuration = try parameters.duration("minimum_duration")
        if let minimumDuration, minimumDuration < 0 {
            throw ParameterError(statistic: parameters.statistic, parameter: "minimum_duration",
                                 location: parameters.values["minimum_duration"]?.location,
                                 message: "expected a duration of 0 or more such as 10m, got '\(parameters.values["minimum_duration"]?.text ?? "")'")
        }
        self.init(kinds: try parameters.strings("kinds") ?? parameters.environment.kinds,
                  minimumDuration: minimumDuration,
                  from: parameters.environment.from, until: parameters.environment.until,
                  asOf: try parameters.asOf())
    }

    /// The predicate over ``Session`` that selects qualifying sessions.
    public var predicate: FetchPredicate {
        var parts: [FetchPredicate] = []
        if let minimumDuration, minimumDuration > 0 {
            parts.append(Session.duration >= minimumDuration)
        } else {
            parts.append(Session.duration > 0)
        }
        // NaN is stored as NULL, which no comparison admits; infinity fails this one.
        parts.append(Session.duration <= Self.longestSession)
        parts.append(Session.start >= Self.earliestStart)
        parts.append(Session.start <= asOf)
        if let from { parts.append(Session.start >= from) }
        if let until { parts.append(Session.start < until) }
        if let kinds { parts.append(Session.kind.in(kinds)) }
        return .and(parts)
    }

    /// A fetch request over the qualifying sessions.
    public func request() -> FetchRequest {
        FetchRequest(Session.self, predicate: predicate)
    }
}
