import StillpointCore

/// SQLite's spelling of what the predicate compiler and the query builders write: `1`/`0`, `IS`, `instr`,
/// `GLOB`, and the functions every connection registers for `[c]`/`[d]`, Unicode case mappings and `MATCHES`.
///
/// ```swift
/// let dialect = SQLDialect.sqlite
/// dialect.folded("\"kind\"", flags: 1)         // "stillpoint_fold(\"kind\", 1)"
/// ```
struct SQLiteSpelling: SQLSpelling {
    let name = "SQLite"
    func literal(_ value: Bool) -> String { value ? "1" : "0" }
    func isNotTrue(_ condition: String) -> String { "(\(condition)) IS NOT 1" }
    let nullSafeEqual = "IS"
    let nullSafeNotEqual = "IS NOT"
    let positionFunction = "instr"
    let patternOperator = "GLOB"
    func pattern(_ pattern: LikePattern) -> String { pattern.glob }
    func parameter(_ placeholder: String, for value: AttributeValue) -> String { placeholder }
    let foldsValuesBeforeBinding = false

    func folded(_ expression: String, flags: Int) -> String {
        "\(TextFolding.sqlFunctionName)(\(expression), \(flags))"
    }

    /// SQLite's `lower` changes ASCII letters only, so SQLite calls the functions every connection registers.
    func caseMapped(_ expression: String, upper: Bool) -> String {
        "\(upper ? TextFolding.uppercaseFunctionName : TextFolding.lowercaseFunctionName)(\(expression))"
    }

    func aggregate(_ function: AggregateFunction, of column: String) -> String { "\(function.sqlName)(\(column))" }
    func direction(ascending: Bool) -> String { ascending ? "ASC" : "DESC" }

    func windowClause(limit: Int?, offset: Int?) -> String {
        switch (limit, offset) {
        case (nil, nil): return ""
        case (let limit?, nil): return " LIMIT \(max(0, limit))"
        case (let limit, let offset?): return " LIMIT \(max(-1, limit ?? -1)) OFFSET \(max(0, offset))"
        }
    }

    func power(_ left: String, _ right: String) -> String { "pow(\(left), \(right))" }

    func call(_ function: PredicateFunction, on x: String) -> String {
        switch function {
        case .abs:
            // SQLite's abs raises an error for the smallest integer, whose opposite is a double, as in memory.
            // The operand is written once (its `?` parameters bind in order), and named in a subquery.
            return "(SELECT CASE WHEN v = -9223372036854775807 - 1 THEN 9223372036854775808.0 ELSE abs(v) END FROM (SELECT \(x) AS v))"
        case .sqrt: return "sqrt(\(x))"
        case .floor: return "CAST(floor(\(x)) AS REAL)"
        case .ceiling: return "CAST(ceil(\(x)) AS REAL)"
        case .trunc: return "CAST(trunc(\(x)) AS REAL)"
        case .length: return "length(\(x))"
        default: return "\(function.rawValue)(\(x))"
        }
    }

    /// Every connection registers ``RegularExpressionMatch``'s function, which runs ICU's regular expressions.
    let regularExpressionOperator: String? = nil
    func translatedRegularExpression(_ pattern: String, flags: Int) throws(FetchPredicateError) -> String { pattern }
    func refusalOfComputedPattern(_ operand: String) -> String { "" }
    func refusalToFold(_ modifiers: String, computed operand: String) -> String { "" }
}
