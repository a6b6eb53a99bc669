/// The spelling of no database, for checking a predicate or expression by its names and types alone: the
/// compiler resolves every key against the entity's attributes and relationships and types every operand, and
/// this spelling writes plain SQL that nothing runs and refuses nothing a store might.
///
/// ```swift
/// try predicate.check(against: Session.entity)   // compiles through SQLDialect.typeChecking
/// ```
struct TypeCheckingSpelling: SQLSpelling {
    let name = "type checking"
    func literal(_ value: Bool) -> String { value ? "TRUE" : "FALSE" }
    func isNotTrue(_ condition: String) -> String { "(\(condition)) IS NOT TRUE" }
    let nullSafeEqual = "IS NOT DISTINCT FROM"
    let nullSafeNotEqual = "IS DISTINCT FROM"
    let positionFunction = "position"
    let patternOperator = "LIKE"
    func pattern(_ pattern: LikePattern) -> String { pattern.glob }
    func parameter(_ placeholder: String, for value: AttributeValue) -> String { placeholder }
    let foldsValuesBeforeBinding = false
    func folded(_ expression: String, flags: Int) -> String { "\(TextFolding.sqlFunctionName)(\(expression), \(flags))" }
    func caseMapped(_ expression: String, upper: Bool) -> String { "\(upper ? "upper" : "lower")(\(expression))" }
    func aggregate(_ function: AggregateFunction, of column: String) -> String { "\(function.sqlName)(\(column))" }
    func direction(ascending: Bool) -> String { ascending ? "ASC" : "DESC" }
    func windowClause(limit: Int?, offset: Int?) -> String { "" }
    func power(_ left: String, _ right: String) -> String { "power(\(left), \(right))" }
    func call(_ function: PredicateFunction, on x: String) -> String { "\(function.rawValue)(\(x))" }
    let regularExpressionOperator: String? = nil
    func translatedRegularExpression(_ pattern: String, flags: Int) throws(FetchPredicateError) -> String { pattern }
    func refusalOfComputedPattern(_ operand: String) -> String { "" }
    func refusalToFold(_ modifiers: String, computed operand: String) -> String { "" }
}

extension SQLDialect {
    /// The dialect that checks names and types only (``TypeCheckingSpelling``): what a predicate must satisfy on
    /// every store, before any store's own refusals.
    static let typeChecking = SQLDialect(parameterStyle: .questionMark, spelling: TypeCheckingSpelling())
}
