/// A condition on the attributes of objects, written in Core Data's `NSPredicate` format syntax.
///
/// It compiles to parameterized SQL for the store, and evaluates in memory with the same semantics.
///
/// ```swift
/// let recent = try FetchPredicate("kind ==[c] %@ AND duration >= %@", "yoga", 600)
/// let either = recent || (try FetchPredicate("kind IN %@", ["run", "swim"]))
/// ```
///
/// Code builds them from typed attributes instead, checked by the compiler (see <doc:TypedPredicates>):
///
/// ```swift
/// let recent = Session.kind == "yoga" && Session.duration >= 600
/// ```
public struct FetchPredicate: Sendable, Hashable {
    /// How deep parentheses and NOT may nest in a format; real predicates use two or three levels.
    ///
    /// The parser, the evaluator and the SQL compiler recurse once per level, so a format of thousands of
    /// `(` would otherwise overflow the stack: deeper formats are a syntax error instead.
    ///
    /// ```swift
    /// try FetchPredicate(String(repeating: "(", count: 500) + "x == 1" + String(repeating: ")", count: 500))
    /// // throws: parentheses and NOT nest more than 100 levels deep here; ...
    /// ```
    public static let maximumNesting = 100

    let root: PredicateNode

    init(root: PredicateNode) {
        self.root = root
    }

    /// Parses a format, filling `%@` with values and `%K` with attribute names from `arguments`, in order.
    ///
    /// ```swift
    /// try FetchPredicate("%K BEGINSWITH[cd] %@", PredicateArgument.key("title"), "morn")
    /// ```
    public init(_ format: String, _ arguments: any PredicateArgumentConvertible...) throws(FetchPredicateError) {
        try self.init(format: format, arguments: arguments.map(\.predicateArgument))
    }

    /// Parses a format with an array of arguments.
    public init(format: String, arguments: [PredicateArgument]) throws(FetchPredicateError) {
        self.init(root: try PredicateParser.parse(format, arguments: arguments))
    }

    /// The predicate that every object matches (`TRUEPREDICATE`).
    public static let `true` = FetchPredicate(root: .constant(true))
    /// The predicate that no object matches (`FALSEPREDICATE`).
    public static let `false` = FetchPredicate(root: .constant(false))

    /// Matches what all of `predicates` match; `.true` when empty.
    public static func and(_ predicates: [FetchPredicate]) -> FetchPredicate {
        FetchPredicate(root: .allOf(predicates.map(\.root)))
    }

    /// Matches what any of `predicates` matches; `.false` when empty.
    public static func or(_ predicates: [FetchPredicate]) -> FetchPredicate {
        FetchPredicate(root: .anyOf(predicates.map(\.root)))
    }

    /// Matches what `predicate` doesn't.
    public static func not(_ predicate: FetchPredicate) -> FetchPredicate {
        FetchPredicate(root: .negation(predicate.root))
    }

    public static func && (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate { and([lhs, rhs]) }
    public static func || (lhs: FetchPredicate, rhs: FetchPredicate) -> FetchPredicate { or([lhs, rhs]) }
    public static prefix func ! (predicate: FetchPredicate) -> FetchPredicate { not(predicate) }

    /// The attribute names the predicate reads.
    public var referencedKeys: Set<String> {
        Set(root.orderedKeys)
    }

    /// Whether an object matches, reading its attributes with `valueForKey`; agrees with the SQL the store runs for it.
    ///
    /// ```swift
    /// predicate.evaluate { key in object.values[key] ?? .null }
    /// ```
    public func evaluate(_ valueForKey: (String) -> AttributeValue) -> Bool {
        PredicateEvaluator.evaluate(root, valueForKey)
    }

    /// Compiles to an SQL expression in `dialect` for a WHERE or HAVING clause, with every value as a parameter
    /// numbered from `firstParameter` (for a dialect whose parameters have numbers, after the ones the statement
    /// has before it).
    ///
    /// `resolve` maps each key to its SQL expression and type, and throws for unknown keys (see
    /// ``FetchPredicateError/unknownAttribute(_:entity:attributes:)``). `[c]`/`[d]` comparisons call the
    /// dialect's folding function.
    ///
    /// ```swift
    /// let fragment = try predicate.sqlFragment(in: store.dialect) { .column($0, type: attributeTypes[$0]) }
    /// ```
    ///
    /// With `entity`, key paths through its relationships (`run.file`, `sessions.@count`), `ANY`/`ALL`/`NONE`
    /// and `SUBQUERY(…).@count` compile to subqueries of the tables they reach.
    package func sqlFragment(in dialect: SQLDialect, firstParameter: Int = 1, entity: EntityDescription? = nil,
                             resolvingKeysWith resolve: (String) throws -> PredicateKeyResolution) throws -> SQLFragment {
        try PredicateSQLCompiler.compile(root, dialect: dialect, firstParameter: firstParameter, entity: entity, resolve: resolve)
    }

    /// Checks the predicate by names and types alone, as every store needs it: each key an attribute of `entity`
    /// (or a path through its relationships), each comparison between operands of one type, each function given
    /// numbers or text as it needs. What only one store refuses (a `MATCHES` pattern its regular expressions can't
    /// mean as ICU's do) is left to that store's compiler.
    ///
    /// ```swift
    /// let predicate = try FetchPredicate("kind == 'yoga' AND duration / 60 > 20")
    /// try predicate.check(against: Session.entity)
    /// try FetchPredicate("kind > 5").check(against: Session.entity)   // throws: text compared with a number
    /// ```
    public func check(against entity: EntityDescription) throws {
        _ = try sqlFragment(in: .typeChecking, entity: entity, resolvingKeysWith: SQLDialect.typeChecking.attributeResolver(entity))
    }

    /// Checks the predicate by names and types alone, its keys resolved by `resolve` (which throws for an unknown
    /// one): ``check(against:)`` for keys checked by the caller.
    ///
    /// ```swift
    /// try predicate.check { key in .column(key, type: try entity.checkedAttribute(named: key).type) }
    /// ```
    package func check(entity: EntityDescription? = nil, resolvingKeysWith resolve: (String) throws -> PredicateKeyResolution) throws {
        _ = try sqlFragment(in: .typeChecking, entity: entity, resolvingKeysWith: resolve)
    }
}

extension FetchPredicate: CustomStringConvertible {
    /// A format string, with values written as literals, that parses back to an equivalent predicate.
    public var description: String {
        root.description
    }
}
