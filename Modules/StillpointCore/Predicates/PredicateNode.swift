import Foundation

/// The parsed form of a ``FetchPredicate``: a tree of comparisons joined by AND, OR and NOT.
indirect enum PredicateNode: Sendable, Hashable {
    case constant(Bool)
    case comparison(PredicateComparison)
    case not(PredicateNode)
    /// Two or more operands, none of them an `and` (nested ANDs are flattened).
    case and([PredicateNode])
    /// Two or more operands, none of them an `or`.
    case or([PredicateNode])
    /// `ANY`, `ALL` or `NONE` of the objects a relationship reaches match `inner`, whose keys are the destination's.
    case quantified(PredicateQuantifier, relationship: String, PredicateNode)

    /// Joins with AND, flattening nested ANDs and dropping or absorbing constants.
    static func allOf(_ operands: [PredicateNode]) -> PredicateNode {
        var flat: [PredicateNode] = []
        for operand in operands {
            switch operand {
            case .constant(true): continue
            case .constant(false): return .constant(false)
            case .and(let inner): flat += inner
            default: flat.append(operand)
            }
        }
        switch flat.count {
        case 0: return .constant(true)
        case 1: return flat[0]
        default: return .and(flat)
        }
    }

    /// Joins with OR, flattening nested ORs and dropping or absorbing constants.
    static func anyOf(_ operands: [PredicateNode]) -> PredicateNode {
        var flat: [PredicateNode] = []
        for operand in operands {
            switch operand {
            case .constant(false): continue
            case .constant(true): return .constant(true)
            case .or(let inner): flat += inner
            default: flat.append(operand)
            }
        }
        switch flat.count {
        case 0: return .constant(false)
        case 1: return flat[0]
        default: return .or(flat)
        }
    }

    /// Negates, simplifying constants and double negations (sound because a NULL comparison counts as false).
    static func negation(_ operand: PredicateNode) -> PredicateNode {
        switch operand {
        case .constant(let value): return .constant(!value)
        case .not(let inner): return inner
        default: return .not(operand)
        }
    }

    /// The keys the predicate reads, in order of first appearance.
    var orderedKeys: [String] {
        var keys: [String] = []
        var seen: Set<String> = []
        func visit(_ node: PredicateNode) {
            switch node {
            case .constant: break
            case .comparison(let comparison):
                // A SUBQUERY's keys are the destination's, like a quantified condition's.
                for operand in [comparison.lhs, comparison.rhs] {
                    for name in operand.keys where seen.insert(name).inserted { keys.append(name) }
                }
            case .not(let operand): visit(operand)
            case .and(let operands), .or(let operands): operands.forEach(visit)
            case .quantified: break  // its keys are the destination's
            }
        }
        visit(self)
        return keys
    }
}

/// One comparison: `lhs op[options] rhs`.
struct PredicateComparison: Sendable, Hashable {
    var lhs: PredicateOperand
    var op: PredicateOperator
    var options: PredicateComparisonOptions
    var rhs: PredicateOperand
}

/// One side of a comparison.
enum PredicateOperand: Sendable, Hashable {
    case key(String)
    case value(AttributeValue)
    /// The right-hand side of `IN` and `BETWEEN`.
    case list([AttributeValue])
    /// `SUBQUERY(relationship, $variable, inner).@count`: how many of the objects the relationship reaches match
    /// `inner`, whose keys are the destination's (written `$variable.key` in a format), as an integer.
    indirect case subqueryCount(relationship: String, variable: String, PredicateNode)
    /// `$NAME`: a value given later, by ``FetchPredicate/withSubstitutionVariables(_:)``.
    case variable(String)
    /// `lhs + rhs`, `duration / 60`, `score ** 2`: numbers only; NULL on either side gives NULL.
    indirect case arithmetic(PredicateArithmeticOperator, PredicateOperand, PredicateOperand)
    /// `abs(duration)`, `lowercase(kind)`, `now()`, `-duration`: the function of its operands.
    indirect case function(PredicateFunction, [PredicateOperand])

    /// The keys this operand reads, outside SUBQUERYs (whose keys are the destination's), in order.
    var keys: [String] {
        switch self {
        case .key(let name): return [name]
        case .value, .list, .subqueryCount, .variable: return []
        case .arithmetic(_, let lhs, let rhs): return lhs.keys + rhs.keys
        case .function(_, let operands): return operands.flatMap(\.keys)
        }
    }

    /// Whether the store computes it from keys and literals (arithmetic or a function), rather than reading it.
    var isComputed: Bool {
        switch self {
        case .arithmetic, .function: return true
        default: return false
        }
    }
}

enum PredicateOperator: Sendable, Hashable {
    case equal, notEqual, less, lessOrEqual, greater, greaterOrEqual
    case `in`, between, beginsWith, endsWith, contains, like, matches

    /// The canonical spelling, used by descriptions and error messages.
    var symbol: String {
        switch self {
        case .equal: return "=="
        case .notEqual: return "!="
        case .less: return "<"
        case .lessOrEqual: return "<="
        case .greater: return ">"
        case .greaterOrEqual: return ">="
        case .in: return "IN"
        case .between: return "BETWEEN"
        case .beginsWith: return "BEGINSWITH"
        case .endsWith: return "ENDSWITH"
        case .contains: return "CONTAINS"
        case .like: return "LIKE"
        case .matches: return "MATCHES"
        }
    }

    /// Operators that work on text only.
    var isTextOperator: Bool {
        switch self {
        case .beginsWith, .endsWith, .contains, .like, .matches: return true
        default: return false
        }
    }
}

/// The `[c]`, `[d]` and `[cd]` modifiers.
struct PredicateComparisonOptions: OptionSet, Sendable, Hashable {
    let rawValue: Int
    // Same bits as the flags of the SQL function `stillpoint_fold`.
    static let caseInsensitive = PredicateComparisonOptions(rawValue: TextFolding.caseInsensitiveFlag)
    static let diacriticInsensitive = PredicateComparisonOptions(rawValue: TextFolding.diacriticInsensitiveFlag)

    var modifierSuffix: String {
        guard !isEmpty else { return "" }
        return "[" + (contains(.caseInsensitive) ? "c" : "") + (contains(.diacriticInsensitive) ? "d" : "") + "]"
    }
}

// MARK: - Description

extension PredicateNode: CustomStringConvertible {
    /// A format string that parses back to an equivalent predicate.
    var description: String {
        switch self {
        case .constant(let value): return value ? "TRUEPREDICATE" : "FALSEPREDICATE"
        case .comparison(let comparison): return comparison.description
        case .not(let operand):
            if case .comparison = operand { return "NOT " + operand.description }
            if case .constant = operand { return "NOT " + operand.description }
            return "NOT (" + operand.description + ")"
        case .and(let operands):
            return operands.map { operand in
                if case .or = operand { return "(" + operand.description + ")" }
                return operand.description
            }.joined(separator: " AND ")
        case .or(let operands):
            return operands.map(\.description).joined(separator: " OR ")
        case .quantified(let quantifier, let relationship, let inner):
            return quantifier.rawValue + " " + inner.prefixingKeys(with: relationship + ".").description
        }
    }

    /// The same predicate with every key read through `prefix`.
    func prefixingKeys(with prefix: String) -> PredicateNode {
        func prefixed(_ operand: PredicateOperand) -> PredicateOperand {
            switch operand {
            case .key(let name): return .key(prefix + name)
            case .subqueryCount(let relationship, let variable, let inner):
                return .subqueryCount(relationship: prefix + relationship, variable: variable, inner)
            case .value, .list, .variable: return operand
            case .arithmetic(let op, let lhs, let rhs): return .arithmetic(op, prefixed(lhs), prefixed(rhs))
            case .function(let function, let operands): return .function(function, operands.map(prefixed))
            }
        }
        switch self {
        case .constant: return self
        case .comparison(var comparison):
            comparison.lhs = prefixed(comparison.lhs)
            comparison.rhs = prefixed(comparison.rhs)
            return .comparison(comparison)
        case .not(let operand): return .not(operand.prefixingKeys(with: prefix))
        case .and(let operands): return .and(operands.map { $0.prefixingKeys(with: prefix) })
        case .or(let operands): return .or(operands.map { $0.prefixingKeys(with: prefix) })
        case .quantified(let quantifier, let relationship, let inner):
            return .quantified(quantifier, relationship: prefix + relationship, inner)
        }
    }
}

/// How many of the objects a relationship reaches must match: `ANY` (or `SOME`), `ALL` or `NONE`.
enum PredicateQuantifier: String, Sendable, Hashable {
    case any = "ANY"
    case all = "ALL"
    case none = "NONE"
}

extension PredicateComparison: CustomStringConvertible {
    var description: String {
        "\(lhs) \(op.symbol)\(options.modifierSuffix) \(rhs)"
    }
}

extension PredicateOperand: CustomStringConvertible {
    var description: String {
        switch self {
        case .key(let name): return Self.formatKey(name)
        case .value(let value): return Self.formatLiteral(value)
        case .list(let values): return "{" + values.map(Self.formatLiteral).joined(separator: ", ") + "}"
        case .subqueryCount(let relationship, let variable, let inner):
            let name = "$" + variable
            return "SUBQUERY(\(Self.formatKey(relationship)), \(name), \(inner.prefixingKeys(with: name + "."))).@count"
        case .arithmetic(let op, let lhs, let rhs):
            // Operands that are themselves arithmetic are parenthesized, so the tree reads back whatever the precedence.
            func written(_ operand: PredicateOperand) -> String {
                if case .arithmetic = operand { return "(\(operand))" }
                return operand.description
            }
            return "\(written(lhs)) \(op.rawValue) \(written(rhs))"
        case .variable(let name):
            return "$" + name
        case .function(.negate, let operands):
            // As few parentheses as read back the same, so a description nests no deeper than what it describes:
            // `-duration`, `- -duration`, `- 5` (not the literal -5), `-(a + b)`.
            guard operands.count == 1, let operand = operands.first else {
                return "-(" + operands.map(\.description).joined(separator: ", ") + ")"
            }
            switch operand {
            case .arithmetic, .list, .subqueryCount: return "-(\(operand))"
            case .value, .function(.negate, _): return "- \(operand)"
            case .key, .variable, .function: return "-\(operand)"
            }
        case .function(let function, let operands):
            return function.rawValue + "(" + operands.map(\.description).joined(separator: ", ") + ")"
        }
    }

    static func formatKey(_ name: String) -> String {
        if name.contains(".") { return name.split(separator: ".").map { formatKey(String($0)) }.joined(separator: ".") }
        if name.hasPrefix("@") { return name }
        let isIdentifier = name.first.map { $0.isLetter || $0 == "_" } == true
            && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
        // Names that aren't identifiers only come from %K; they can't be spelled in a format.
        guard isIdentifier else { return name }
        // A key spelled like a keyword is escaped with '#', as NSPredicate does.
        return PredicateLexer.reservedWords.contains(name.uppercased()) ? "#" + name : name
    }

    static func formatLiteral(_ value: AttributeValue) -> String {
        switch value {
        case .null: return "nil"
        case .integer(let value): return String(value)
        case .double(let value): return "\(value)"
        case .string(let value): return formatString(value)
        case .bool(let value): return value ? "TRUE" : "FALSE"
        case .date(let value):
            // NSPredicate's own spelling: seconds since the 2001 reference date.
            return "CAST(\(value.timeIntervalSinceReferenceDate), \"NSDate\")"
        case .uuid(let value): return "CAST(\"\(value.uuidString)\", \"UUID\")"
        case .binary(let value): return "CAST(\"\(value.base64EncodedString())\", \"NSData\")"
        }
    }

    static func formatString(_ text: String) -> String {
        var result = "\""
        for character in text {
            switch character {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result.append(character)
            }
        }
        return result + "\""
    }
}
