/// How one database spells the SQL the store seam writes: parameters, quoted names, and the folding of text
/// for `[c]`/`[d]` comparisons. One value per database, so that the predicate compiler and the query builders
/// write no database's SQL by themselves.
///
/// ```swift
/// let dialect = SQLDialect.sqlite
/// dialect.quote("start")                       // "\"start\""
/// dialect.parameter(3)                         // "?" (PostgreSQL would say "$3")
/// dialect.folded("\"kind\"", flags: 1)         // "stillpoint_fold(\"kind\", 1)"
/// ```
package struct SQLDialect: Sendable, Hashable {
    /// How a statement names its parameters.
    package enum ParameterStyle: Sendable, Hashable {
        /// `?`, bound in order (SQLite).
        case questionMark
        /// `$1`, `$2`, ... (PostgreSQL).
        case numbered
    }

    /// Which database's spelling of the rest (constants, null-safe comparisons, text functions, patterns, order
    /// of NULLs, folding): SQLite's or PostgreSQL's.
    package enum Spelling: Sendable, Hashable {
        case sqlite
        case postgreSQL
    }

    package var parameterStyle: ParameterStyle
    package var spelling: Spelling
    /// The SQL function that folds text for `[c]`/`[d]` comparisons: `name(text, flags)`, flags as in
    /// ``TextFolding``.
    package var foldFunctionName: String

    package init(parameterStyle: ParameterStyle, foldFunctionName: String, spelling: Spelling = .sqlite) {
        self.parameterStyle = parameterStyle
        self.foldFunctionName = foldFunctionName
        self.spelling = spelling
    }

    /// SQLite's: `?` parameters and the `stillpoint_fold` function each connection registers.
    package static let sqlite = SQLDialect(parameterStyle: .questionMark, foldFunctionName: TextFolding.sqlFunctionName)

    /// Quotes an identifier (a table or column name).
    package func quote(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// The parameter at `position` (1-based) of a statement.
    package func parameter(_ position: Int) -> String {
        switch parameterStyle {
        case .questionMark: return "?"
        case .numbered: return "$\(position)"
        }
    }

    /// `count` parameters from `first` on, separated by commas: `?, ?, ?`.
    package func parameters(_ count: Int, from first: Int = 1) -> String {
        (0..<count).map { parameter(first + $0) }.joined(separator: ", ")
    }

    /// `expression` lowercased or uppercased with Unicode's case mappings, as Foundation's `lowercased(with:)`
    /// does (a final Σ becomes ς): SQLite's `lower` changes ASCII letters only, so SQLite calls the functions
    /// every connection registers.
    package func caseMapped(_ expression: String, upper: Bool) -> String {
        if spelling == .postgreSQL {
            // The database's locale is C, whose lower() is ASCII only; ICU's root locale maps all of Unicode.
            return "(\(upper ? "upper" : "lower")(\(expression) COLLATE \"und-x-icu\") COLLATE \"C\")"
        }
        return "\(upper ? TextFolding.uppercaseFunctionName : TextFolding.lowercaseFunctionName)(\(expression))"
    }

    /// `expression` folded for a comparison with `flags` (1 case-, 2 diacritic-insensitive, 3 both).
    package func folded(_ expression: String, flags: Int) -> String {
        if spelling == .postgreSQL { return postgreSQLFolded(expression, flags: flags) }
        return "\(foldFunctionName)(\(expression), \(flags))"
    }
}
