/// How one database spells the SQL the store seam writes: parameters, quoted names, and the rest through its
/// ``SQLSpelling``. One value per database, so that the predicate compiler and the query builders write no
/// database's SQL by themselves; each store module supplies its own (`StillpointSQL` holds the built-in ones).
///
/// ```swift
/// let dialect = SQLDialect.sqlite              // from StillpointSQL
/// dialect.quote("start")                       // "\"start\""
/// dialect.parameter(3)                         // "?" (a numbered dialect says "$3")
/// dialect.folded("\"kind\"", flags: 1)         // "stillpoint_fold(\"kind\", 1)"
/// ```
package struct SQLDialect: Sendable, Hashable {
    /// How a statement names its parameters.
    package enum ParameterStyle: Sendable, Hashable {
        /// `?`, bound in order.
        case questionMark
        /// `$1`, `$2`, ...
        case numbered
    }

    package var parameterStyle: ParameterStyle
    /// The database's spelling of what differs between databases.
    package var spelling: any SQLSpelling

    package init(parameterStyle: ParameterStyle, spelling: any SQLSpelling) {
        self.parameterStyle = parameterStyle
        self.spelling = spelling
    }

    package static func == (lhs: SQLDialect, rhs: SQLDialect) -> Bool {
        lhs.parameterStyle == rhs.parameterStyle && lhs.spelling.name == rhs.spelling.name
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(parameterStyle)
        hasher.combine(spelling.name)
    }

    /// Quotes an identifier (a table or column name).
    package func quote(_ identifier: String) -> String {
        Self.quoted(identifier)
    }

    /// `identifier` quoted, as every dialect quotes it.
    package static func quoted(_ identifier: String) -> String {
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

    /// The parameter at `position` for `value`, typed where the spelling needs it.
    package func parameter(_ position: Int, for value: AttributeValue) -> String {
        spelling.parameter(parameter(position), for: value)
    }

    /// `expression` lowercased or uppercased with Unicode's case mappings.
    package func caseMapped(_ expression: String, upper: Bool) -> String {
        spelling.caseMapped(expression, upper: upper)
    }

    /// `expression` folded for a comparison with `flags` (1 case-, 2 diacritic-insensitive, 3 both).
    package func folded(_ expression: String, flags: Int) -> String {
        spelling.folded(expression, flags: flags)
    }

    /// A value folded for a `[c]`/`[d]` comparison with `flags`.
    package func foldedValue(_ value: AttributeValue, flags: Int) -> AttributeValue {
        switch value {
        case .string(let text): return .string(TextFolding.fold(text, flags: flags))
        case .uuid(let uuid): return .string(TextFolding.fold(uuid.uuidString, flags: flags))
        default: return value
        }
    }

    /// The column that holds `attribute`'s text folded with `flags` (1 case-, 2 diacritic-insensitive, 3 both),
    /// on stores that keep folded copies (``SQLSpelling/foldsValuesBeforeBinding``).
    package static func foldedColumnName(_ attribute: String, flags: Int) -> String {
        "\(attribute)$fold\(flags)"
    }

    /// The flags of the folded copies a text column has.
    package static let foldFlags = [1, 2, 3]

    /// ` LIMIT n OFFSET m`, or less, or nothing.
    package func windowClause(limit: Int?, offset: Int?) -> String {
        spelling.windowClause(limit: limit, offset: offset)
    }

    func literal(_ value: Bool) -> String { spelling.literal(value) }
    func isNotTrue(_ condition: String) -> String { spelling.isNotTrue(condition) }
    var nullSafeEqual: String { spelling.nullSafeEqual }
    var nullSafeNotEqual: String { spelling.nullSafeNotEqual }
    var positionFunction: String { spelling.positionFunction }
    var patternOperator: String { spelling.patternOperator }
    func pattern(_ pattern: LikePattern) -> String { spelling.pattern(pattern) }
    var foldsValuesBeforeBinding: Bool { spelling.foldsValuesBeforeBinding }
    func aggregate(_ function: AggregateFunction, of column: String) -> String { spelling.aggregate(function, of: column) }
    func direction(ascending: Bool) -> String { spelling.direction(ascending: ascending) }
}
