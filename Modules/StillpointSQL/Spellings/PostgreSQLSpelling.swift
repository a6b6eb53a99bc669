import StillpointCore

/// PostgreSQL's spelling of what the predicate compiler and the query builders write, next to SQLite's.
///
/// PostgreSQL gets `TRUE`/`FALSE`, `IS NOT DISTINCT FROM`, `strpos`, `LIKE` with escapes, typed parameters
/// (`$1::bigint`), NULLs ordered as SQLite orders them, and `[c]`/`[d]` comparisons against folded copies of
/// text columns (folded in Swift when a row is written, with ``TextFolding``, so that they agree with the
/// in-memory evaluator exactly).
///
/// ```swift
/// let dialect = SQLDialect.postgreSQL
/// dialect.parameter(2, for: .integer(5))       // "($2::bigint)"
/// dialect.folded("\"kind\"", flags: 1)         // "\"kind$fold1\""
/// ```
struct PostgreSQLSpelling: SQLSpelling {
    let name = "PostgreSQL"
    func literal(_ value: Bool) -> String { value ? "TRUE" : "FALSE" }
    func isNotTrue(_ condition: String) -> String { "(\(condition)) IS NOT TRUE" }
    let nullSafeEqual = "IS NOT DISTINCT FROM"
    let nullSafeNotEqual = "IS DISTINCT FROM"
    let positionFunction = "strpos"
    let patternOperator = "LIKE"

    /// LIKE's syntax, with `\` escapes.
    func pattern(_ pattern: LikePattern) -> String {
        var result = ""
        for element in pattern.elements {
            switch element {
            case .anyRun: result += "%"
            case .anyOne: result += "_"
            case .literal(let scalar) where scalar == "%" || scalar == "_" || scalar == "\\":
                result += "\\" + String(scalar)
            case .literal(let scalar): result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Typed, since parameters are sent as text: numbers compare as numbers and text byte by byte (as SQLite
    /// compares it).
    func parameter(_ placeholder: String, for value: AttributeValue) -> String {
        switch value {
        case .null: return placeholder
        case .integer, .bool: return "(\(placeholder)::bigint)"
        case .double, .date: return "(\(placeholder)::double precision)"
        case .string, .uuid: return "(\(placeholder)::text COLLATE \"C\")"
        case .binary: return "(\(placeholder)::bytea)"
        }
    }

    let foldsValuesBeforeBinding = true

    /// A column's folded copy; an expression that is not a column (an aggregate in a having-clause) is lowered,
    /// which agrees with the evaluator for ASCII text only.
    func folded(_ expression: String, flags: Int) -> String {
        guard expression.count >= 2, expression.hasPrefix("\""), expression.hasSuffix("\"") else {
            return "lower(\(expression))"
        }
        let name = String(expression.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
        return SQLDialect.quoted(SQLDialect.foldedColumnName(name, flags: flags))
    }

    /// The database's locale is C, whose lower() is ASCII only; ICU's root locale maps all of Unicode.
    func caseMapped(_ expression: String, upper: Bool) -> String {
        "(\(upper ? "upper" : "lower")(\(expression) COLLATE \"und-x-icu\") COLLATE \"C\")"
    }

    /// PostgreSQL's `AVG` of doubles also sums squares (and overflows where the sum does not) and of integers
    /// answers in `numeric`: the average is the sum over the count, in doubles, as SQLite's.
    func aggregate(_ function: AggregateFunction, of column: String) -> String {
        if function == .average {
            return "(CAST(SUM(\(column)) AS double precision) / NULLIF(COUNT(\(column)), 0))"
        }
        return "\(function.sqlName)(\(column))"
    }

    /// NULLs first when ascending, as SQLite sorts them.
    func direction(ascending: Bool) -> String { ascending ? "ASC NULLS FIRST" : "DESC NULLS LAST" }

    /// `ALL` where SQLite says -1.
    func windowClause(limit: Int?, offset: Int?) -> String {
        switch (limit, offset) {
        case (nil, nil): return ""
        case (let limit?, nil): return " LIMIT \(max(0, limit))"
        case (let limit, let offset?): return " LIMIT \(limit.map { $0 < 0 ? "ALL" : String($0) } ?? "ALL") OFFSET \(max(0, offset))"
        }
    }

    func power(_ left: String, _ right: String) -> String { "power(\(Self.double(left)), \(Self.double(right)))" }

    func call(_ function: PredicateFunction, on x: String) -> String {
        switch function {
        case .abs: return "abs(\(x))"
        // NULL for a negative number, as memory gives (PostgreSQL would raise an error); the parameters are
        // numbered, so writing the operand twice binds it twice.
        case .sqrt: return "sqrt(CASE WHEN \(x) >= 0 THEN \(Self.double(x)) END)"
        case .floor: return "floor(\(Self.double(x)))"
        case .ceiling: return "ceiling(\(Self.double(x)))"
        case .trunc: return "trunc(\(Self.double(x)))"
        case .length: return "char_length(\(x))"
        default: return "\(function.rawValue)(\(x))"
        }
    }

    let regularExpressionOperator: String? = "~"

    func translatedRegularExpression(_ pattern: String, flags: Int) throws(FetchPredicateError) -> String {
        try PostgreSQLRegularExpression(pattern, flags: flags).pattern
    }

    func refusalOfComputedPattern(_ operand: String) -> String {
        "MATCHES on PostgreSQL needs its pattern as a string value, not '\(operand)'; write the pattern itself, or use a SQLite store"
    }

    func refusalToFold(_ modifiers: String, computed operand: String) -> String {
        "\(modifiers) can't fold the computed '\(operand)' on PostgreSQL; compare lowercase(…) or uppercase(…) without [c]/[d]"
    }

    private static func double(_ sql: String) -> String {
        "CAST(\(sql) AS double precision)"
    }
}
