/// What a key of a predicate stands for in SQL: an expression and, when known, its attribute type.
///
/// ```swift
/// try predicate.sqlFragment { key in
///     guard let type = attributes[key] else {
///         throw FetchPredicateError.unknownAttribute(key, entity: "Session", attributes: Array(attributes.keys))
///     }
///     return .column(key, type: type)
/// }
/// ```
public struct PredicateKeyResolution: Sendable, Hashable {
    /// The SQL expression, already quoted: `"duration"`, or `SUM("duration")` in a having-clause.
    public var sql: String
    /// The type of the expression's values; `nil` turns off type checks for this key.
    public var type: AttributeType?

    public init(sql: String, type: AttributeType?) {
        self.sql = sql
        self.type = type
    }

    /// A column of the fetched table, quoted as an SQL identifier.
    public static func column(_ name: String, type: AttributeType?) -> PredicateKeyResolution {
        PredicateKeyResolution(sql: "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"", type: type)
    }
}
