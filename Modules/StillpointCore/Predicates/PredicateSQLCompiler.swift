/// Compiles a ``PredicateNode`` to an SQL expression in a ``SQLDialect`` whose every value is a parameter.
///
/// The SQL agrees with ``PredicateEvaluator``: a NULL comparison counts as false, so NOT is written
/// `(x) IS NOT 1` (true when x is false or NULL) rather than `NOT x` (NULL when x is NULL).
struct PredicateSQLCompiler {
    private let keys: [String: PredicateKeyResolution]
    private let dialect: SQLDialect
    /// The position of the statement's first parameter that this expression writes.
    private let firstParameter: Int
    private var arguments: [AttributeValue] = []

    /// Resolves every key once, in order of appearance, so the first unknown key is the one reported.
    static func compile(_ node: PredicateNode, dialect: SQLDialect = .sqlite, firstParameter: Int = 1,
                        resolve: (String) throws -> PredicateKeyResolution) throws -> SQLFragment {
        var keys: [String: PredicateKeyResolution] = [:]
        for key in node.orderedKeys {
            keys[key] = try resolve(key)
        }
        var compiler = PredicateSQLCompiler(keys: keys, dialect: dialect, firstParameter: firstParameter)
        let sql = try compiler.sql(for: node)
        return SQLFragment(sql: sql, arguments: compiler.arguments)
    }

    private init(keys: [String: PredicateKeyResolution], dialect: SQLDialect, firstParameter: Int) {
        self.keys = keys
        self.dialect = dialect
        self.firstParameter = firstParameter
    }

    private mutating func sql(for node: PredicateNode) throws(FetchPredicateError) -> String {
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
        }
    }

    private mutating func join(_ operands: [PredicateNode], with separator: String) throws(FetchPredicateError) -> String {
        var parts: [String] = []
        for operand in operands {
            parts.append(try sql(for: operand))
        }
        return "(" + parts.joined(separator: separator) + ")"
    }

    // MARK: Operands

    /// An operand ready to be written: a key's SQL expression, or a value to bind.
    private enum Term {
        case expression(String, isUUID: Bool)
        case parameter(AttributeValue)

        var isNull: Bool {
            if case .parameter(.null) = self { return true }
            return false
        }

        var isKey: Bool {
            if case .expression = self { return true }
            return false
        }

        var isUUID: Bool {
            switch self {
            case .expression(_, let isUUID): return isUUID
            case .parameter(.uuid): return true
            case .parameter: return false
            }
        }
    }

    private func term(_ operand: PredicateOperand) -> Term {
        switch operand {
        case .key(let name):
            let resolution = keys[name]!  // swiftlint:disable:this force_unwrapping: every key was resolved before compiling
            return .expression(resolution.sql, isUUID: resolution.type == .uuid)
        case .value(let value):
            return .parameter(value)
        case .list:
            return .parameter(.null)
        }
    }

    /// Reads a string literal as a UUID when compared with a UUID, as ``PredicateEvaluator`` does.
    private func reading(_ term: Term, against other: Term) -> Term {
        guard other.isUUID, case .parameter(let value) = term else { return term }
        return .parameter(PredicateEvaluator.readingUUID(value))
    }

    /// Writes a term, folded when the comparison has `[c]`/`[d]`, appending its value to the arguments.
    private mutating func write(_ term: Term, _ options: PredicateComparisonOptions) -> String {
        let sql: String
        switch term {
        case .expression(let expression, _):
            sql = expression
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

    private mutating func sql(for comparison: PredicateComparison) throws(FetchPredicateError) -> String {
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
                return "\(write(other, [])) \(isEqual ? "IS NULL" : "IS NOT NULL")"
            }
            // `!=` is true against NULL (IS NOT); `=` and `IS` only differ when both sides may be NULL.
            let op = isEqual ? (lhs.isKey && rhs.isKey ? dialect.nullSafeEqual : "=") : dialect.nullSafeNotEqual
            return "\(write(lhs, options)) \(op) \(write(rhs, options))"

        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            return "\(write(lhs, options)) \(comparison.op.symbol) \(write(rhs, options))"

        case .in:
            guard case .list(let values) = comparison.rhs else { return dialect.literal(false) }
            let elements = values.map { reading(.parameter($0), against: lhs) }
            let nonNull = elements.filter { !$0.isNull }
            var parts: [String] = []
            if !nonNull.isEmpty {
                let left = write(lhs, options)
                let list = nonNull.map { write($0, options) }.joined(separator: ", ")
                parts.append("\(left) IN (\(list))")
            }
            if nonNull.count < elements.count {
                // IN is a disjunction of ==, and `x == nil` is `x IS NULL`.
                parts.append("\(write(lhs, [])) IS NULL")
            }
            switch parts.count {
            case 0: return dialect.literal(false)
            case 1: return parts[0]
            default: return "(" + parts.joined(separator: " OR ") + ")"
            }

        case .between:
            guard case .list(let bounds) = comparison.rhs, bounds.count == 2 else { return dialect.literal(false) }
            let left = write(lhs, options)
            let low = write(reading(.parameter(bounds[0]), against: lhs), options)
            let high = write(reading(.parameter(bounds[1]), against: lhs), options)
            return "(\(left) BETWEEN \(low) AND \(high))"

        // Text operators use substr/instr rather than LIKE, so '%' and '_' in the value are plain characters.
        case .beginsWith:
            return "substr(\(write(rawLHS, options)), 1, length(\(write(rawRHS, options)))) = \(write(rawRHS, options))"
        case .endsWith:
            return "substr(\(write(rawLHS, options)), length(\(write(rawLHS, options))) - length(\(write(rawRHS, options))) + 1) = \(write(rawRHS, options))"
        case .contains:
            return "\(dialect.positionFunction)(\(write(rawLHS, options)), \(write(rawRHS, options))) > 0"
        case .like:
            guard case .value(let value) = comparison.rhs, let pattern = PredicateEvaluator.text(of: value) else {
                return "\(write(rawLHS, options)) \(dialect.patternOperator) \(write(.parameter(.null), []))"
            }
            // Fold the pattern here; the GLOB translation brackets *, ? and [ that are meant literally.
            let folded = options.isEmpty ? pattern : TextFolding.fold(pattern, flags: options.rawValue)
            return "\(write(rawLHS, options)) \(dialect.patternOperator) \(write(.parameter(.string(dialect.pattern(LikePattern(folded)))), []))"
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
    private func typeCheck(_ comparison: PredicateComparison) throws(FetchPredicateError) {
        let sides = [comparison.lhs, comparison.rhs]
        let needsText = comparison.op.isTextOperator || !comparison.options.isEmpty
        for (index, side) in sides.enumerated() {
            guard case .key(let name) = side, let type = keys[name]?.type else { continue }
            let keyClass = ValueClass(type)
            let what = comparison.op.isTextOperator
                ? comparison.op.symbol
                : "\(comparison.op.symbol)\(comparison.options.modifierSuffix)"
            if needsText, keyClass != .text {
                throw FetchPredicateError(.invalidComparison, "\(what) compares text, but '\(name)' is \(Self.article(type)) attribute")
            }
            let other = sides[1 - index]
            switch other {
            case .key(let otherName):
                if let otherType = keys[otherName]?.type, ValueClass(otherType) != keyClass {
                    throw FetchPredicateError(.invalidComparison, "'\(name)' is \(Self.article(type)) attribute and '\(otherName)' is \(Self.article(otherType)) attribute; they can't be compared")
                }
            case .value(let value):
                try check(value, against: name, type)
            case .list(let values):
                for value in values { try check(value, against: name, type) }
            }
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
