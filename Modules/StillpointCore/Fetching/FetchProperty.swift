/// A column of a dictionary fetch: an attribute, an aggregate over the matching rows or each group, or an
/// expression of attributes and aggregates (``FetchExpression``).
///
/// ```swift
/// request.properties = [.attribute("kind"), .aggregate(.average, of: "duration", as: "average"), .count(as: "n"),
///                       .expression(try FetchExpression("sum(duration) / 60"), as: "minutes")]
/// ```
public enum FetchProperty: Sendable, Hashable {
    case attribute(String)
    case aggregate(AggregateFunction, of: String, as: String)
    case count(as: String)
    /// `duration / 60 AS minutes`, `sum(duration) / count(*) AS mean`: computed by the store.
    case expression(FetchExpression, as: String)

    /// The key of the column in each result dictionary.
    public var key: String {
        switch self {
        case .attribute(let name): return name
        case .aggregate(_, _, let alias), .count(let alias), .expression(_, let alias): return alias
        }
    }
}

/// An aggregate function of a dictionary fetch. It runs in SQL, never over objects loaded in memory.
public enum AggregateFunction: String, Sendable, Hashable, CaseIterable {
    case sum, average, minimum, maximum, count

    package var sqlName: String {
        switch self {
        case .sum: return "SUM"
        case .average: return "AVG"
        case .minimum: return "MIN"
        case .maximum: return "MAX"
        case .count: return "COUNT"
        }
    }

    /// The type of the result for an attribute of `type`.
    func resultType(for type: AttributeType) -> AttributeType? {
        switch self {
        case .count: return .integer
        case .average: return .double
        case .sum: return type == .integer || type == .bool ? .integer : .double
        case .minimum, .maximum: return type
        }
    }
}
