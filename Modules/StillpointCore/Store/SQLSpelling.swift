/// How one database writes what differs between databases in the SQL the store seam writes: constants,
/// null-safe comparisons, text functions and patterns, typed parameters, folding for `[c]`/`[d]`, the order of
/// NULLs, windows, arithmetic functions and `MATCHES`. The core names no database: each store module supplies
/// its spelling (`StillpointSQL` holds the built-in ones), and ``SQLDialect`` holds one.
///
/// ```swift
/// struct MySpelling: SQLSpelling {
///     let name = "mydb"
///     func literal(_ value: Bool) -> String { value ? "TRUE" : "FALSE" }
///     // ...
/// }
/// let dialect = SQLDialect(parameterStyle: .numbered, spelling: MySpelling())
/// ```
package protocol SQLSpelling: Sendable {
    /// The database's name, which tells two spellings apart.
    var name: String { get }
    /// A boolean constant as a condition.
    func literal(_ value: Bool) -> String
    /// True when `condition` is false or NULL, as the evaluator's NOT is.
    func isNotTrue(_ condition: String) -> String
    /// `=` that is true when both sides are NULL.
    var nullSafeEqual: String { get }
    /// `!=` that is true when exactly one side is NULL.
    var nullSafeNotEqual: String { get }
    /// The function that finds text in text, 1-based, 0 when absent: `instr(haystack, needle)`.
    var positionFunction: String { get }
    /// The case-sensitive pattern operator whose pattern ``pattern(_:)`` writes.
    var patternOperator: String { get }
    /// A LIKE-predicate pattern in the operator's syntax.
    func pattern(_ pattern: LikePattern) -> String
    /// The parameter `placeholder` for `value`, typed where the database needs it to compare as the evaluator does.
    func parameter(_ placeholder: String, for value: AttributeValue) -> String
    /// Whether `[c]`/`[d]` comparisons fold values in Swift and read folded copies of columns, rather than folding
    /// both sides with a function of the database.
    var foldsValuesBeforeBinding: Bool { get }
    /// `expression` folded for a comparison with `flags` (1 case-, 2 diacritic-insensitive, 3 both).
    func folded(_ expression: String, flags: Int) -> String
    /// `expression` lowercased or uppercased with Unicode's case mappings, as Foundation's `lowercased(with:)` does.
    func caseMapped(_ expression: String, upper: Bool) -> String
    /// An aggregate of a column, answering as the evaluator does.
    func aggregate(_ function: AggregateFunction, of column: String) -> String
    /// The order of a sort key: NULLs first when ascending.
    func direction(ascending: Bool) -> String
    /// ` LIMIT n OFFSET m`, or less, or nothing.
    func windowClause(limit: Int?, offset: Int?) -> String
    /// `left` to the power `right`, a double.
    func power(_ left: String, _ right: String) -> String
    /// `function` (`abs`, `sqrt`, `floor`, `ceiling`, `trunc`, `length`) of the SQL value `x`, answering as the
    /// evaluator does.
    func call(_ function: PredicateFunction, on x: String) -> String
    /// The operator that matches text against the database's own regular expressions, into which `MATCHES`
    /// patterns are translated (over the text's `[d]`-folded copy); `nil` when every connection registers
    /// ``RegularExpressionMatch``'s function, which runs ICU's.
    var regularExpressionOperator: String? { get }
    /// `pattern` (ICU's, read with `flags` as ``RegularExpressionMatch/matches(_:pattern:flags:)`` reads them)
    /// translated for ``regularExpressionOperator``, or refused with why.
    func translatedRegularExpression(_ pattern: String, flags: Int) throws(FetchPredicateError) -> String
    /// Why a `MATCHES` whose pattern `operand` is not a constant can't be translated.
    func refusalOfComputedPattern(_ operand: String) -> String
    /// Why `[c]`/`[d]` (`modifiers`) can't fold the computed `operand`, when folded copies of columns are read.
    func refusalToFold(_ modifiers: String, computed operand: String) -> String
}
