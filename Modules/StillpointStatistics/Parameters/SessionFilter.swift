import Foundation
import PracticeLog
import StillpointCore

/// Which sessions qualify for a statistic: its kinds, minimum duration, the report's date range, and
/// nothing that starts after `as_of`. It becomes the predicate of the statistic's fetch requests.
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

    public init(kinds: [String]? = nil, minimumDuration: TimeInterval? = nil, from: Date? = nil, until: Date? = nil, asOf: Date) {
        self.kinds = kinds
        self.minimumDuration = minimumDuration
        self.from = from
        self.until = until
        self.asOf = asOf
    }

    /// The filter of a statistic's parameters: its own `kinds`, `minimum_duration` and `as_of`, else the report's.
    public init(_ parameters: StatisticParameters) throws {
        self.init(kinds: try parameters.strings("kinds") ?? parameters.environment.kinds,
                  minimumDuration: try parameters.duration("minimum_duration"),
                  from: parameters.environment.from, until: parameters.environment.until,
                  asOf: try parameters.asOf())
    }

    /// The predicate over ``Session`` that selects qualifying sessions.
    public var predicate: FetchPredicate {
        var parts: [FetchPredicate] = []
        do {
            if let minimumDuration {
                parts.append(try FetchPredicate("duration >= %@", minimumDuration))
            } else {
                parts.append(try FetchPredicate("duration > 0"))
            }
            parts.append(try FetchPredicate("start <= %@", asOf))
            if let from { parts.append(try FetchPredicate("start >= %@", from)) }
            if let until { parts.append(try FetchPredicate("start < %@", until)) }
            if let kinds { parts.append(try FetchPredicate("kind IN %@", kinds)) }
        } catch {
            preconditionFailure("a session filter predicate does not parse: \(error)")
        }
        return .and(parts)
    }

    /// A fetch request over the qualifying sessions.
    public func request() -> FetchRequest {
        FetchRequest(Session.self, predicate: predicate)
    }
}
