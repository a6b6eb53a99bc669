import Foundation
import StillpointCore
import StillpointStatistics

/// A mistake in a custom statistic's definition, with the field it is in so a manifest can point at it.
///
/// ```swift
/// do { _ = try CustomStatistic(id: "yoga_time", function: .sum, attribute: "duraton") }
/// catch { print(error) }   // custom statistic 'yoga_time', attribute: Session has no attribute 'duraton'; did you mean 'duration'?
/// ```
public struct CustomStatisticError: Error, Sendable, Hashable, LocalizedError, CustomStringConvertible {
    /// The key of the definition the mistake is in.
    public enum Field: String, Sendable, Hashable {
        case entity, function, attribute, `where`, groupBy = "group_by", unit
    }

    public var statistic: String
    public var field: Field
    /// The position in `group_by` of the attribute at fault, for that field.
    public var index: Int?
    /// What is wrong and what to do.
    public var message: String
    /// The parser's error for a `where` predicate: its offset places a caret under the mistake.
    public var predicateError: FetchPredicateError?

    public init(statistic: String, field: Field, index: Int? = nil, message: String, predicateError: FetchPredicateError? = nil) {
        self.statistic = statistic
        self.field = field
        self.index = index
        self.message = message
        self.predicateError = predicateError
    }

    public var description: String {
        "custom statistic '\(statistic)', \(field.rawValue): \(message)"
    }

    public var errorDescription: String? { description }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.statistic == rhs.statistic && lhs.field == rhs.field && lhs.index == rhs.index && lhs.message == rhs.message
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(statistic)
        hasher.combine(field)
        hasher.combine(message)
    }
}
