import Foundation

/// PostgreSQL's spelling of what the predicate compiler and the query builders write, next to SQLite's.
///
/// SQLite's output is what it always was; PostgreSQL gets `TRUE`/`FALSE`, `IS NOT DISTINCT FROM`, `strpos`,
/// `LIKE` with escapes, typed parameters (`$1::bigint`), NULLs ordered as SQLite orders them, and `[c]`/`[d]`
/// comparisons against folded copies of text columns (folded in Swift when a row is written, with
/// ``TextFolding``, so that they agree with the in-memory evaluator exactly).
///
/// ```swift
/// let dialect = SQLDialect.postgreSQL
/// dialect.parameter(2, for: .integer(5))       // "($2::bigint)"
/// dialect.folded("\"kind\"", flags: 1)         // "\"kind$fold1\""
/// ```
extension SQLDialect {
    /// PostgreSQL's: `$1` parameters, typed; text folded into shadow columns.
    package static let postgreSQL = SQLDialect(parameterStyle: .numbered, foldFunctionName: "lower", spelling: .postgreSQL)

    /// The column that holds `attribute`'s text folded with `flags` (1 case-, 2 diacritic-insensitive, 3 both),
    /// on stores that keep folded copies (PostgreSQL).
    package static func foldedColumnName(_ attribute: String, flags: Int) -> String {
        "\(attribute)$fold\(flags)"
    }

    /// The flags of the folded copies a text column has.
    package static let foldFlags = [1, 2, 3]

    /// A boolean constant as a condition.
    func literal(_ value: Bool) -> String {
        switch spelling {
        case .sqlite: return value ? "1" : "0"
        case .postgreSQL: return value ? "TRUE" : "FALSE"
        }
    }

    /// True when `condition` is false or NULL, as the evaluator's NOT is.
    func isNotTrue(_ condition: String) -> String {
        switch spelling {
        case .sqlite: return "(\(condition)) IS NOT 1"
        case .postgreSQL: return "(\(condition)) IS NOT TRUE"
        }
    }

    /// `=` that is true when both sides are NULL.
    var nullSafeEqual: String { spelling == .sqlite ? "IS" : "IS NOT DISTINCT FROM" }
    /// `!=` that is true when exactly one side is NULL.
    var nullSafeNotEqual: String { spelling == .sqlite ? "IS NOT" : "IS DISTINCT FROM" }
    /// The function that finds text in text, 1-based, 0 when absent: `instr(haystack, needle)`.
    var positionFunction: String { spelling == .sqlite ? "instr" : "strpos" }
    /// The case-sensitive pattern operator whose pattern ``pattern(_:)`` writes.
    var patternOperator: String { spelling == .sqlite ? "GLOB" : "LIKE" }

    /// A LIKE-predicate pattern in the operator's syntax: GLOB's for SQLite, LIKE's with `\` escapes for PostgreSQL.
    func pattern(_ pattern: LikePattern) -> String {
        guard spelling == .postgreSQL else { return pattern.glob }
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

    /// The parameter at `position` for `value`: typed on PostgreSQL, whose parameters are sent as text, so that
    /// numbers compare as numbers and text byte by byte (as SQLite compares it).
    package func parameter(_ position: Int, for value: AttributeValue) -> String {
        guard spelling == .postgreSQL else { return parameter(position) }
        let placeholder = parameter(position)
        switch value {
        case .null: return placeholder
        case .integer, .bool: return "(\(placeholder)::bigint)"
        case .double, .date: return "(\(placeholder)::double precision)"
        case .string, .uuid: return "(\(placeholder)::text COLLATE \"C\")"
        case .binary: return "(\(placeholder)::bytea)"
        }
    }

    /// Whether `[c]`/`[d]` comparisons fold values in Swift and read folded copies of columns (PostgreSQL),
    /// rather than folding both sides with a function of the database (SQLite).
    var foldsValuesBeforeBinding: Bool { spelling == .postgreSQL }

    /// A value folded for a `[c]`/`[d]` comparison with `flags`.
    package func foldedValue(_ value: AttributeValue, flags: Int) -> AttributeValue {
        switch value {
        case .string(let text): return .string(TextFolding.fold(text, flags: flags))
        case .uuid(let uuid): return .string(TextFolding.fold(uuid.uuidString, flags: flags))
        default: return value
        }
    }

    /// A column's folded copy; an expression that is not a column (an aggregate in a having-clause) is lowered,
    /// which agrees with the evaluator for ASCII text only.
    func postgreSQLFolded(_ expression: String, flags: Int) -> String {
        guard expression.count >= 2, expression.hasPrefix("\""), expression.hasSuffix("\"") else {
            return "\(foldFunctionName)(\(expression))"
        }
        let name = String(expression.dropFirst().dropLast()).replacingOccurrences(of: "\"\"", with: "\"")
        return quote(Self.foldedColumnName(name, flags: flags))
    }

    /// An aggregate of a column. PostgreSQL's `AVG` of doubles also sums squares (and overflows where the sum does
    /// not) and of integers answers in `numeric`: the average is the sum over the count, in doubles, as SQLite's.
    func aggregate(_ function: AggregateFunction, of column: String) -> String {
        if spelling == .postgreSQL, function == .average {
            return "(CAST(SUM(\(column)) AS double precision) / NULLIF(COUNT(\(column)), 0))"
        }
        return "\(function.sqlName)(\(column))"
    }

    /// The order of a sort key: NULLs first when ascending, as SQLite sorts them.
    func direction(ascending: Bool) -> String {
        switch spelling {
        case .sqlite: return ascending ? "ASC" : "DESC"
        case .postgreSQL: return ascending ? "ASC NULLS FIRST" : "DESC NULLS LAST"
        }
    }

    /// ` LIMIT n OFFSET m` with `ALL` where SQLite says -1.
    func postgreSQLWindowClause(limit: Int?, offset: Int?) -> String {
        switch (limit, offset) {
        case (nil, nil): return ""
        case (let limit?, nil): return " LIMIT \(max(0, limit))"
        case (let limit, let offset?): return " LIMIT \(limit.map { $0 < 0 ? "ALL" : String($0) } ?? "ALL") OFFSET \(max(0, offset))"
        }
    }
}
