/// What a key of a predicate stands for in SQL: an expression and, when known, its attribute type.
///
/// ```swift
/// try predicate.sqlFragment(in: .sqlite) { key in
///     guard let type = attributes[key] else {
///         throw FetchPredicateError.unknownAttribute(key, entity: "Session", attributes: Array(attributes.keys))
///     }
///     return .column(key, type: type)
/// }
/// ```
package struct PredicateKeyResolution: Sendable, Hashable {
    /// The SQL expression, already quoted: `"duration"`, or `SUM("duration")` in a having-clause.
    package var sql: String
    /// The type of the expression's values; `nil` turns off type checks for this key.
    package var type: AttributeType?
    /// The expression of its folded copy by folding flags, where the store keeps copies (PostgreSQL) and the
    /// expression is not a plain column (a column of a related row), whose copy the dialect names by itself.
    package var foldedSQL: [Int: String] = [:]

    package init(sql: String, type: AttributeType?) {
        self.sql = sql
        self.type = type
    }

    /// A column of the fetched table, quoted as an SQL identifier.
    package static func column(_ name: String, type: AttributeType?) -> PredicateKeyResolution {
        PredicateKeyResolution(sql: "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\"", type: type)
    }
}
