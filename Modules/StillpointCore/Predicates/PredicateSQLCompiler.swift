/// Compiles a ``PredicateNode`` to an SQL expression in a ``SQLDialect`` whose every value is a parameter.
///
/// The SQL agrees with ``PredicateEvaluator``: a NULL comparison counts as false, so NOT is written
/// `(x) IS NOT 1` (true when x is false or NULL) rather than `NOT x` (NULL when x is NULL).
struct PredicateSQLCompiler {
    /// The entity whose relationships key paths and `ANY`/`ALL`/`NONE` follow, and its table as the SQL names it
    /// (an alias inside a subquery).
    struct Scope {
        let entity: EntityDescription
        let table: String
        let depth: Int
    }

    private var keys: [String: PredicateKeyResolution] = [:]
    let dialect: SQLDialect
    /// The position of the statement's first parameter that this expression writes.
    private let firstParameter: Int
    private var arguments: [AttributeValue] = []
    private let scope: Scope?

    /// Resolves every key once, in order of appearance, so the first unknown key is the one reported. With
    /// `entity`, key paths through its relationships and quantified conditions compile to subqueries.
    static func compile(_ node: PredicateNode, dialect: SQLDialect, firstParameter: Int = 1, entity: EntityDescription? = nil,
                        resolve: (String) throws -> PredicateKeyResolution) throws -> SQLFragment {
        let scope = entity.map { Scope(entity: $0, table: dialect.quote($0.name), depth: 0) }
        var compiler = PredicateSQLCompiler(dialect: dialect, firstParameter: firstParameter, scope: scope)
        for key in node.orderedKeys {
            compiler.keys[key] = key.contains(".") ? try compiler.resolvePath(key) : try resolve(key)
        }
        let sql = try compiler.sql(for: node)
        return SQLFragment(sql: sql, arguments: compiler.arguments)
    }

    /// An operand (a fetch request's ``FetchExpression``) as one SQL value and the type of its values; its keys
    /// (paths through `entity`'s relationships aside) resolved by `resolve`.
    static func compileOperand(_ operand: PredicateOperand, dialect: SQLDialect, entity: EntityDescription,
                               resolve: (String) throws -> PredicateKeyResolution) throws -> (sql: String, type: AttributeType?) {
        var compiler = PredicateSQLCompiler(dialect: dialect, firstParameter: 1,
                                            scope: Scope(entity: entity, table: dialect.quote(entity.name), depth: 0))
        for key in operand.keys where compiler.keys[key] == nil {
            compiler.keys[key] = key.contains(".") && !key.contains("(") ? try compiler.resolvePath(key) : try resolve(key)
        }
        let type = try compiler.computedType(operand)
        return (try compiler.writeOperand(operand), type)
    }

    /// A key path of `entity` (`importRun.file`, `sessions.@count`) as one SQL value, for the columns and
    /// groups of a dictionary fetch.
    static func keyPath(_ path: String, of entity: EntityDescription, in dialect: SQLDialect) throws -> PredicateKeyResolution {
        try PredicateSQLCompiler(dialect: dialect, firstParameter: 1, scope: Scope(entity: entity, table: dialect.quote(entity.name), depth: 0))
            .resolvePath(path)
    }

    private init(dialect: SQLDialect, firstParameter: Int, scope: Scope?) {
        self.dialect = dialect
        self.firstParameter = firstParameter
        self.scope = scope
    }

    private mutating func sql(for node: PredicateNode) throws -> String {
        switch node {
        case .constant(let value):
            return dialect.literal(value)
        case .comparison(let comparison):
            return try sql(for: comparison)
        case .not(let operand):
            return dialect.isNotTrue(try sql(for: operand))
        case .and(let operands):
            return try join(operands, with: " AND ")
        case .or(let operands):
            return try join(operands, with: " OR ")
        case .quantified(let quantifier, let name, let inner):
            let step = try follow(name)
            let condition = try sql(for: inner, in: step)
            let related = "SELECT 1 FROM \(step.from) WHERE \(step.link)"
            switch quantifier {
            case .any: return "EXISTS (\(related) AND \(condition))"
            case .none: return "NOT EXISTS (\(related) AND \(condition))"
            case .all: return "NOT EXISTS (\(related) AND \(dialect.isNotTrue(condition)))"
            }
        }
    }

    /// `inner` as a condition on the rows of `step`'s destination, its parameters numbered after this one's.
    private mutating func sql(for inner: PredicateNode, in step: Step) throws -> String {
        var nested = PredicateSQLCompiler(dialect: dialect, firstParameter: firstParameter + arguments.count, scope: step.scope)
        for key in inner.orderedKeys {
            nested.keys[key] = key.contains(".") ? try nested.resolvePath(key) : try nested.column(key)
        }
        let condition = try nested.sql(for: inner)
        arguments += nested.arguments
        return condition
    }

    /// `SUBQUERY(name, $x, inner).@count`: the related rows that match, counted. A to-one relationship reaches
    /// at most one row, so its count is 0 or 1, as the evaluator counts it.
    private mutating func subqueryCount(_ name: String, _ inner: PredicateNode) throws -> String {
        if let scope, scope.entity.relationship(named: name) == nil, scope.entity.attribute(named: name) != nil {
            throw FetchPredicateError(.invalidComparison, "SUBQUERY counts the objects of a relationship, but '\(name)' is an attribute of '\(scope.entity.name)'; relationships: \(scope.entity.relationships.map(\.name).joined(separator: ", "))")
        }
        let step = try follow(name)
        let condition = try sql(for: inner, in: step)
        return "(SELECT COUNT(*) FROM \(step.from) WHERE \(step.link) AND \(condition))"
    }

    // MARK: Relationships

    /// One step through a relationship: the destination's scope, its table and alias, and the condition that
    /// links its rows to the current row.
    private struct Step {
        let relationship: RelationshipDescription
        let scope: Scope
        let from: String
        let link: String
    }

    private func follow(_ name: String) throws -> Step {
        guard let scope else {
            throw FetchPredicateError(.unknownAttribute, "'\(name)' is followed as a relationship, but keys here are attributes only")
        }
        guard let relationship = scope.entity.relationship(named: name) else {
            throw FetchPredicateError.unknownAttribute(
                name, entity: scope.entity.name, attributes: scope.entity.relationships.map(\.name))
        }
        guard let destination = relationship.destinationEntity?() else {
            throw FetchPredicateError(.unknownAttribute, "'\(scope.entity.name).\(name)' was declared without its destination's type; declare it with ToOne or ToMany to follow it in a predicate")
        }
        let alias = dialect.quote("_r\(scope.depth + 1)")
        let link: String
        if relationship.isManyToMany(in: destination) {
            let table = ManyToManyLink(relationship, of: scope.entity.name)
            link = "\(alias).\(dialect.quote("_id")) IN (SELECT \(dialect.quote(table.otherColumn)) FROM \(dialect.quote(table.entityName)) "
                + "WHERE \(dialect.quote(table.ownColumn)) = \(scope.table).\(dialect.quote("_id")))"
        } else if relationship.isReadThroughInverse {
            link = "\(alias).\(dialect.quote(relationship.inverse ?? "")) = \(scope.table).\(dialect.quote("_id"))"
        } else {
            link = "\(alias).\(dialect.quote("_id")) = \(scope.table).\(dialect.quote(name))"
        }
        return Step(relationship: relationship, scope: Scope(entity: destination, table: alias, depth: scope.depth + 1),
                    from: "\(dialect.quote(destination.name)) AS \(alias)", link: link)
    }

    /// An attribute of the scope's entity, qualified with its table inside a subquery.
    private func column(_ name: String) throws -> PredicateKeyResolution {
        guard let scope else { throw FetchPredicateError(.unknownAttribute, "'\(name)' can't be read here") }
        if name == "_id" { return qualified(name, in: scope, type: .integer) }
        guard let attribute = scope.entity.attribute(named: name) else {
            throw FetchPredicateError.unknownAttribute(name, entity: scope.entity.name, attributes: scope.entity.attributes.map(\.name))
        }
        return qualified(name, in: scope, type: attribute.type)
    }

    private func qualified(_ name: String, in scope: Scope, type: AttributeType) -> PredicateKeyResolution {
        var resolution = PredicateKeyResolution(sql: "\(scope.table).\(dialect.quote(name))", type: type)
        if dialect.foldsValuesBeforeBinding, type == .string || type == .uuid {
            for flags in SQLDialect.foldFlags {
                resolution.foldedSQL[flags] = "\(scope.table).\(dialect.quote(SQLDialect.foldedColumnName(name, flags: flags)))"
            }
        }
        return resolution
    }

    /// A key path as one value: through to-one relationships to an attribute (`run.file`), or a to-many's
    /// collection operator (`sessions.@count`, `sessions.@sum.duration`), as a scalar subquery.
    private func resolvePath(_ path: String) throws -> PredicateKeyResolution {
        let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let step = try follow(parts[0])
        let rest = parts.dropFirst()
        // The related row's id is the relationship's own column: read there, an index led by it serves a scope.
        if step.relationship.isStored, !step.relationship.isToMany, Array(rest) == ["_id"], let scope {
            return qualified(parts[0], in: scope, type: .integer)
        }
        let inner: PredicateKeyResolution
        if step.relationship.isToMany {
            guard let first = rest.first, let collection = CollectionOperator(rawValue: first) else {
                throw FetchPredicateError(.invalidComparison, "'\(parts[0])' is to-many: compare its objects with ANY, ALL or NONE (ANY \(path) …), or one value of them with @count, @sum, @avg, @min or @max")
            }
            if collection == .count {
                guard rest.count == 1 else { throw FetchPredicateError(.invalidComparison, "'\(path)': @count ends a key path") }
                return PredicateKeyResolution(sql: "(SELECT COUNT(*) FROM \(step.from) WHERE \(step.link))", type: .integer)
            }
            guard rest.count == 2 else {
                throw FetchPredicateError(.invalidComparison, "'\(path)': \(first) needs one attribute after it, like \(parts[0]).\(first).duration")
            }
            let attribute = try PredicateSQLCompiler(dialect: dialect, firstParameter: 1, scope: step.scope).column(rest.last ?? "")
            let sql: String
            switch collection {
            case .sum: sql = "COALESCE(SUM(\(attribute.sql)), 0)"
            case .average: sql = dialect.aggregate(.average, of: attribute.sql)
            case .minimum: sql = "MIN(\(attribute.sql))"
            default: sql = "MAX(\(attribute.sql))"
            }
            return PredicateKeyResolution(sql: "(SELECT \(sql) FROM \(step.from) WHERE \(step.link))",
                                          type: collection == .average ? .double : attribute.type)
        }
        guard !rest.isEmpty else {
            throw FetchPredicateError(.invalidComparison, "'\(path)' is a relationship: compare one of its destination's attributes, like \(path).name, or compare it with nil")
        }
        let nested = PredicateSQLCompiler(dialect: dialect, firstParameter: 1, scope: step.scope)
        let remainder = rest.joined(separator: ".")
        inner = remainder.contains(".") ? try nested.resolvePath(remainder) : try nested.column(remainder)
        // The side of a one-to-one read through its inverse reaches at most one row, which saves keep so.
        let window = step.relationship.isReadThroughInverse ? " LIMIT 1" : ""
        var resolution = PredicateKeyResolution(sql: "(SELECT \(inner.sql) FROM \(step.from) WHERE \(step.link)\(window))", type: inner.type)
        for (flags, folded) in inner.foldedSQL {
            resolution.foldedSQL[flags] = "(SELECT \(folded) FROM \(step.from) WHERE \(step.link)\(window))"
        }
        return resolution
    }

    private mutating func join(_ operands: [PredicateNode], with separator: String) throws -> String {
        var parts: [String] = []
        for operand in operands {
            parts.append(try sql(for: operand))
        }
        return "(" + parts.joined(separator: separator) + ")"
    }

    // MARK: Operands

    /// An operand ready to be written: a key's SQL expression, or a value to bind.
    private enum Term {
        case expression(String, isUUID: Bool, folded: [Int: String])
        /// Compiled where it is written, so that its parameters are numbered in the order of the SQL text.
        case subqueryCount(relationship: String, PredicateNode)
        /// Arithmetic or a function, compiled where it is written, for the same reason.
        case computed(PredicateOperand)
        case parameter(AttributeValue)

        var isNull: Bool {
            if case .parameter(.null) = self { return true }
            return false
        }

        var isKey: Bool {
            if case .parameter = self { return false }
            return true
        }

        var isUUID: Bool {
            switch self {
            case .expression(_, let isUUID, _): return isUUID
            case .parameter(.uuid): return true
            case .parameter, .subqueryCount, .computed: return false
            }
        }
    }

    /// The type of a resolved key, for the type of a computed operand.
    func keyType(_ name: String) -> AttributeType? {
        keys[name]?.type
    }

    /// A key, a value or a SUBQUERY's count inside a computed operand, unfolded.
    mutating func writeOperand(_ operand: PredicateOperand) throws -> String {
        try write(term(operand), [])
    }

    private func term(_ operand: PredicateOperand) -> Term {
        switch operand {
        case .key(let name):
            let resolution = keys[name]!  // swiftlint:disable:this force_unwrapping: every key was resolved before compiling
            return .expression(resolution.sql, isUUID: resolution.type == .uuid, folded: resolution.foldedSQL)
        case .value(let value):
            return .parameter(value)
        case .list:
            return .parameter(.null)
        case .subqueryCount(let relationship, _, let inner):
            return .subqueryCount(relationship: relationship, inner)
        case .arithmetic, .function, .variable:
            return .computed(operand)
        }
    }

    /// Reads a string literal as a UUID when compared with a UUID, as ``PredicateEvaluator`` does.
    private func reading(_ term: Term, against other: Term) -> Term {
        guard other.isUUID, case .parameter(let value) = term else { return term }
        return .parameter(PredicateEvaluator.readingUUID(value))
    }

    /// Writes a term, folded when the comparison has `[c]`/`[d]`, appending its value to the arguments.
    private mutating func write(_ term: Term, _ options: PredicateComparisonOptions) throws -> String {
        let sql: String
        switch term {
        case .subqueryCount(let relationship, let inner):
            // An integer: the type check has refused [c]/[d] on it.
            return try subqueryCount(relationship, inner)
        case .expression(let expression, _, let folded):
            if let copy = folded[options.rawValue] { return copy }
            sql = expression
        case .computed(let operand):
            sql = try computedSQL(operand)
        case .parameter(let value):
            if !options.isEmpty, dialect.foldsValuesBeforeBinding {
                // The store keeps folded copies of text columns; the value is folded here, as the evaluator does.
                let folded = dialect.foldedValue(value, flags: options.rawValue)
                let parameter = dialect.parameter(firstParameter + arguments.count, for: folded)
                arguments.append(folded)
                return parameter
            }
            sql = dialect.parameter(firstParameter + arguments.count, for: value)
            arguments.append(value)
        }
        guard !options.isEmpty else { return sql }
        return dialect.folded(sql, flags: options.rawValue)
    }

    // MARK: Comparisons

    private mutating func sql(for comparison: PredicateComparison) throws -> String {
        for case .variable(let name) in [comparison.lhs, comparison.rhs] {
            throw FetchPredicateError(.argument, "the variable $\(name) has no value; give it with withSubstitutionVariables([\"\(name)\": value]) before fetching")
        }
        try typeCheck(comparison)
        let options = comparison.options
        let rawLHS = term(comparison.lhs), rawRHS = term(comparison.rhs)
        let lhs = reading(rawLHS, against: rawRHS), rhs = reading(rawRHS, against: rawLHS)

        switch comparison.op {
        case .equal, .notEqual:
            let isEqual = comparison.op == .equal
            if lhs.isNull && rhs.isNull { return dialect.literal(isEqual) }
            if lhs.isNull || rhs.isNull {
                let other = lhs.isNull ? rhs : lhs
                return try "\(write(other, [])) \(isEqual ? "IS NULL" : "IS NOT NULL")"
            }
            // `!=` is true against NULL (IS NOT); `=` and `IS` only differ when both sides may be NULL.
            let op = isEqual ? (lhs.isKey && rhs.isKey ? dialect.nullSafeEqual : "=") : dialect.nullSafeNotEqual
            return try "\(write(lhs, options)) \(op) \(write(rhs, options))"

        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            return try "\(write(lhs, options)) \(comparison.op.symbol) \(write(rhs, options))"

        case .in:
            guard case .list(let values) = comparison.rhs else { return dialect.literal(false) }
            let elements = values.map { reading(.parameter($0), against: lhs) }
            let nonNull = elements.filter { !$0.isNull }
            var parts: [String] = []
            if !nonNull.isEmpty {
                let left = try write(lhs, options)
                let list = try nonNull.map { try write($0, options) }.joined(separator: ", ")
                parts.append("\(left) IN (\(list))")
            }
            if nonNull.count < elements.count {
                // IN is a disjunction of ==, and `x == nil` is `x IS NULL`.
                parts.append(try "\(write(lhs, [])) IS NULL")
            }
            switch parts.count {
            case 0: return dialect.literal(false)
            case 1: return parts[0]
            default: return "(" + parts.joined(separator: " OR ") + ")"
            }

        case .between:
            guard case .list(let bounds) = comparison.rhs, bounds.count == 2 else { return dialect.literal(false) }
            let left = try write(lhs, options)
            let low = try write(reading(.parameter(bounds[0]), against: lhs), options)
            let high = try write(reading(.parameter(bounds[1]), against: lhs), options)
            return "(\(left) BETWEEN \(low) AND \(high))"

        // Text operators use substr/instr rather than LIKE, so '%' and '_' in the value are plain characters.
        case .beginsWith:
            return try "substr(\(write(rawLHS, options)), 1, length(\(write(rawRHS, options)))) = \(write(rawRHS, options))"
        case .endsWith:
            return try "substr(\(write(rawLHS, options)), length(\(write(rawLHS, options))) - length(\(write(rawRHS, options))) + 1) = \(write(rawRHS, options))"
        case .contains:
            return try "\(dialect.positionFunction)(\(write(rawLHS, options)), \(write(rawRHS, options))) > 0"
        case .matches:
            let flags = options.rawValue
            if let matchOperator = dialect.spelling.regularExpressionOperator {
                // The database's own operator runs the pattern translated to its regular expressions (or refuses it,
                // saying why), over the text's [d]-folded copy as the evaluator folds it; [c] is in the translation.
                guard case .value(let value) = comparison.rhs else {
                    throw FetchPredicateError(.invalidComparison, dialect.spelling.refusalOfComputedPattern("\(comparison.rhs)"))
                }
                guard let pattern = PredicateEvaluator.text(of: value) else { return dialect.literal(false) }
                let translated = try dialect.spelling.translatedRegularExpression(pattern, flags: flags)
                return try "\(write(rawLHS, options.intersection(.diacriticInsensitive))) \(matchOperator) \(write(.parameter(.string(translated)), []))"
            }
            return try "\(RegularExpressionMatch.sqlFunctionName)(\(write(rawLHS, [])), \(write(rawRHS, [])), \(flags)) = 1"
        case .like:
            guard case .value(let value) = comparison.rhs, let pattern = PredicateEvaluator.text(of: value) else {
                return try "\(write(rawLHS, options)) \(dialect.patternOperator) \(write(.parameter(.null), []))"
            }
            // Fold the pattern here; the GLOB translation brackets *, ? and [ that are meant literally.
            let folded = options.isEmpty ? pattern : TextFolding.fold(pattern, flags: options.rawValue)
            return try "\(write(rawLHS, options)) \(dialect.patternOperator) \(write(.parameter(.string(dialect.pattern(LikePattern(folded)))), []))"
        }
    }

    // MARK: Types

    private enum ValueClass: String {
        case number, text, blob

        init(_ type: AttributeType) {
            switch type {
            case .integer, .double, .bool, .date: self = .number
            case .string, .uuid: self = .text
            case .binary: self = .blob
            }
        }

        init?(_ value: AttributeValue) {
            switch value {
            case .null: return nil
            case .integer, .double, .bool, .date: self = .number
            case .string, .uuid: self = .text
            case .binary: self = .blob
            }
        }
    }

    /// Rejects comparisons that SQLite would answer through type affinity conversions the evaluator doesn't make,
    /// such as an integer attribute against the string "5".
    /// Constants are typed as keys are: a string is text, a number a number; two of different classes are
    /// refused, as a key and a value of different classes are, since PostgreSQL refuses `'a' > 0` that SQLite
    /// answers by its order of storage classes.
    private func typeCheck(_ comparison: PredicateComparison) throws(FetchPredicateError) {
        let sides = [comparison.lhs, comparison.rhs]
        for side in sides where side.isComputed {
            _ = try computedType(side)
            // A store that folds stored copies of columns for [c]/[d] has none of a computed text.
            if !comparison.options.isEmpty, dialect.foldsValuesBeforeBinding {
                throw FetchPredicateError(.invalidComparison, dialect.spelling.refusalToFold(comparison.options.modifierSuffix, computed: "\(side)"))
            }
        }
        let needsText = comparison.op.isTextOperator || !comparison.options.isEmpty
        let constants = sides.map(Self.constantValues)
        if let left = constants[0], let right = constants[1] {
            let classes = Set((left + right).compactMap(ValueClass.init))
            if classes.count > 1 || (needsText && classes.contains { $0 != .text }) {
                throw FetchPredicateError(.invalidComparison, "\(comparison.lhs) and \(comparison.rhs) are constants of different types"
                                          + (needsText ? " or not text" : "") + "; they can't be compared (compare an attribute with a value of its type)")
            }
        }
        for (index, side) in sides.enumerated() {
            guard let (name, type) = typed(side) else { continue }
            let keyClass = ValueClass(type)
            let what = comparison.op.isTextOperator
                ? comparison.op.symbol
                : "\(comparison.op.symbol)\(comparison.options.modifierSuffix)"
            if needsText, keyClass != .text {
                throw FetchPredicateError(.invalidComparison, "\(what) compares text, but '\(name)' is \(Self.article(type)) attribute")
            }
            let other = sides[1 - index]
            switch other {
            case .key, .subqueryCount, .arithmetic, .function:
                if let (otherName, otherType) = typed(other), ValueClass(otherType) != keyClass {
                    throw FetchPredicateError(.invalidComparison, "'\(name)' is \(Self.article(type)) attribute and '\(otherName)' is \(Self.article(otherType)) attribute; they can't be compared")
                }
            case .value(let value):
                try check(value, against: name, type)
            case .list(let values):
                for value in values { try check(value, against: name, type) }
            case .variable:
                break
            }
        }
    }

    /// The values of a constant operand (a value, or a list's), `nil` for one the store computes.
    private static func constantValues(_ operand: PredicateOperand) -> [AttributeValue]? {
        switch operand {
        case .value(let value): return [value]
        case .list(let values): return values
        case .key, .subqueryCount, .arithmetic, .function, .variable: return nil
        }
    }

    /// The name and type of an operand the store computes: a key, or a SUBQUERY's count (an integer).
    private func typed(_ operand: PredicateOperand) -> (name: String, type: AttributeType)? {
        switch operand {
        case .key(let name): return keys[name]?.type.map { (name, $0) }
        case .subqueryCount: return (operand.description, .integer)
        case .value, .list, .variable: return nil
        case .arithmetic, .function: return (try? computedType(operand)).flatMap { $0 }.map { (operand.description, $0) }
        }
    }

    private func check(_ value: AttributeValue, against name: String, _ type: AttributeType) throws(FetchPredicateError) {
        guard let valueClass = ValueClass(value), valueClass != ValueClass(type) else { return }
        throw FetchPredicateError(.invalidComparison, "'\(name)' is \(Self.article(type)) attribute; it can't be compared with \(value)")
    }

    private static func article(_ type: AttributeType) -> String {
        (type == .integer ? "an " : "a ") + type.rawValue
    }
}
