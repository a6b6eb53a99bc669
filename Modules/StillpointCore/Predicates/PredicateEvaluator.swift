import Foundation

/// Evaluates a predicate in memory with the semantics of the SQL that ``PredicateSQLCompiler`` emits.
///
/// Values compare as SQLite compares their stored form: numbers (integers, doubles, bools, dates) numerically,
/// text (strings, UUIDs) by code points, and NULL makes every comparison false except `== nil` / `!= value`.
enum PredicateEvaluator {
    static func evaluate(_ node: PredicateNode, _ valueForKey: (String) -> AttributeValue) -> Bool {
        withoutActuallyEscaping(valueForKey) { evaluate(node, KeyedValues(valueForKey: $0)) }
    }

    static func evaluate(_ node: PredicateNode, _ subject: some PredicateSubject) -> Bool {
        switch node {
        case .constant(let value): return value
        case .comparison(let comparison): return evaluate(comparison, subject)
        case .not(let operand): return !evaluate(operand, subject)
        case .and(let operands): return operands.allSatisfy { evaluate($0, subject) }
        case .or(let operands): return operands.contains { evaluate($0, subject) }
        case .quantified(let quantifier, let relationship, let inner):
            let related = subject.related(through: relationship)
            switch quantifier {
            case .any: return related.contains { evaluate(inner, $0) }
            case .all: return related.allSatisfy { evaluate(inner, $0) }
            case .none: return !related.contains { evaluate(inner, $0) }
            }
        }
    }

    private static func evaluate(_ comparison: PredicateComparison, _ subject: some PredicateSubject) -> Bool {
        let options = comparison.options
        let lhs = Side(comparison.lhs, subject)
        switch comparison.op {
        case .equal:
            return equal(lhs, Side(comparison.rhs, subject), options)
        case .notEqual:
            return !equal(lhs, Side(comparison.rhs, subject), options)
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard let order = order(lhs, Side(comparison.rhs, subject), options) else { return false }
            switch comparison.op {
            case .less: return order == .orderedAscending
            case .lessOrEqual: return order != .orderedDescending
            case .greater: return order == .orderedDescending
            default: return order != .orderedAscending
            }
        case .in:
            guard case .list(let values) = comparison.rhs else { return false }
            return values.contains { equal(lhs, Side(value: $0, isLiteral: true), options) }
        case .between:
            guard case .list(let bounds) = comparison.rhs, bounds.count == 2,
                  let low = order(lhs, Side(value: bounds[0], isLiteral: true), options),
                  let high = order(lhs, Side(value: bounds[1], isLiteral: true), options)
            else { return false }
            return low != .orderedAscending && high != .orderedDescending
        case .matches:
            let rhs = Side(comparison.rhs, subject)
            guard let text = Self.text(of: lhs.value), let pattern = Self.text(of: rhs.value) else { return false }
            return RegularExpressionMatch.matches(text, pattern: pattern, flags: options.rawValue) ?? false
        case .beginsWith, .endsWith, .contains, .like:
            let rhs = Side(comparison.rhs, subject)
            guard let text = self.text(of: fold(lhs.value, options)),
                  let other = self.text(of: fold(rhs.value, options))
            else { return false }
            let scalars = Array(text.unicodeScalars), otherScalars = Array(other.unicodeScalars)
            switch comparison.op {
            case .beginsWith: return scalars.starts(with: otherScalars)
            case .endsWith: return scalars.reversed().starts(with: otherScalars.reversed())
            case .contains: return contains(scalars, otherScalars)
            default: return LikePattern(other).matches(scalars)
            }
        }
    }

    /// One operand's value, and whether it was written in the predicate (a literal or argument) rather than read from a key.
    private struct Side {
        var value: AttributeValue
        var isLiteral: Bool

        init(value: AttributeValue, isLiteral: Bool) {
            self.value = value
            self.isLiteral = isLiteral
        }

        init(_ operand: PredicateOperand, _ subject: some PredicateSubject) {
            switch operand {
            case .key(let name): self.init(value: subject.value(forKeyPath: name), isLiteral: false)
            case .subqueryCount:
                self.init(value: PredicateEvaluator.computed(operand, subject), isLiteral: false)
            case .value(let value): self.init(value: value, isLiteral: true)
            case .list, .variable: self.init(value: .null, isLiteral: true)
            case .arithmetic, .function: self.init(value: PredicateEvaluator.computed(operand, subject), isLiteral: false)
            }
        }
    }

    /// `==`: NULL equals only NULL, as SQL's `IS` (the SQL uses `=` only against non-NULL values, where they agree).
    private static func equal(_ lhs: Side, _ rhs: Side, _ options: PredicateComparisonOptions) -> Bool {
        if lhs.value.isNull || rhs.value.isNull { return lhs.value.isNull && rhs.value.isNull }
        let (left, right) = prepared(lhs, rhs, options)
        return compare(left, right) == .orderedSame
    }

    /// Ordering for `<`, `BETWEEN`…: `nil` when either side is NULL, which makes the comparison false, as in SQL.
    private static func order(_ lhs: Side, _ rhs: Side, _ options: PredicateComparisonOptions) -> ComparisonResult? {
        if lhs.value.isNull || rhs.value.isNull { return nil }
        let (left, right) = prepared(lhs, rhs, options)
        return compare(left, right)
    }

    /// Applies the UUID reading of string literals, then folding, in the same order as the SQL compiler.
    private static func prepared(_ lhs: Side, _ rhs: Side, _ options: PredicateComparisonOptions) -> (AttributeValue, AttributeValue) {
        var left = lhs.value, right = rhs.value
        if case .uuid = left, rhs.isLiteral { right = readingUUID(right) }
        if case .uuid = right, lhs.isLiteral { left = readingUUID(left) }
        return (fold(left, options), fold(right, options))
    }

    // MARK: Shared with the SQL compiler

    /// A string literal compared with a UUID is read as a UUID when it spells one, so case doesn't matter.
    static func readingUUID(_ value: AttributeValue) -> AttributeValue {
        if case .string(let text) = value, let uuid = UUID(uuidString: text) { return .uuid(uuid) }
        return value
    }

    /// Whether the value is stored as text (strings, and UUIDs as their `uuidString`).
    static func isTextual(_ value: AttributeValue) -> Bool {
        text(of: value) != nil
    }

    /// The stored text of a string or UUID.
    static func text(of value: AttributeValue) -> String? {
        switch value {
        case .string(let text): return text
        case .uuid(let uuid): return uuid.uuidString
        default: return nil
        }
    }

    /// Folds text as `stillpoint_fold` does; other values are left alone.
    static func fold(_ value: AttributeValue, _ options: PredicateComparisonOptions) -> AttributeValue {
        guard !options.isEmpty, let text = text(of: value) else { return value }
        return .string(TextFolding.fold(text, flags: options.rawValue))
    }

    /// SQLite's order of stored values: numbers, then text by code point, then blobs by byte. Neither may be NULL.
    static func compare(_ lhs: AttributeValue, _ rhs: AttributeValue) -> ComparisonResult {
        let lhsClass = storageClass(lhs), rhsClass = storageClass(rhs)
        if lhsClass != rhsClass { return order(lhsClass, rhsClass) }
        switch (lhs, rhs) {
        case (.integer, _), (.bool, _):
            if let left = exactInteger(lhs), let right = exactInteger(rhs) { return order(left, right) }
        default:
            break
        }
        if let left = lhs.numericValue, let right = rhs.numericValue { return order(left, right) }
        if let left = text(of: lhs), let right = text(of: rhs) { return lexicographic(Array(left.utf8), Array(right.utf8)) }
        if case .binary(let left) = lhs, case .binary(let right) = rhs { return lexicographic(Array(left), Array(right)) }
        return .orderedSame
    }

    private static func storageClass(_ value: AttributeValue) -> Int {
        switch value {
        case .null: return 0
        case .integer, .double, .bool, .date: return 1
        case .string, .uuid: return 2
        case .binary: return 3
        }
    }

    private static func exactInteger(_ value: AttributeValue) -> Int64? {
        switch value {
        case .integer(let value): return value
        case .bool(let value): return value ? 1 : 0
        default: return nil
        }
    }

    private static func order<T: Comparable>(_ lhs: T, _ rhs: T) -> ComparisonResult {
        lhs < rhs ? .orderedAscending : (lhs == rhs ? .orderedSame : .orderedDescending)
    }

    private static func lexicographic(_ lhs: [UInt8], _ rhs: [UInt8]) -> ComparisonResult {
        for (left, right) in zip(lhs, rhs) where left != right {
            return left < right ? .orderedAscending : .orderedDescending
        }
        return order(lhs.count, rhs.count)
    }

    /// Substring search by code point, as SQLite's `instr`; the empty string is found everywhere.
    private static func contains(_ text: [Unicode.Scalar], _ part: [Unicode.Scalar]) -> Bool {
        guard !part.isEmpty else { return true }
        guard part.count <= text.count else { return false }
        return (0...(text.count - part.count)).contains { start in
            text[start..<(start + part.count)].elementsEqual(part)
        }
    }
}
