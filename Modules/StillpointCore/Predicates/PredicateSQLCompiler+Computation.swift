import Foundation

/// Arithmetic and functions in SQL, computing what ``PredicateEvaluator`` computes in memory on both stores.
///
/// A divisor is wrapped in `NULLIF(…, 0)`, so that dividing by zero gives NULL on both (PostgreSQL would
/// raise an error); `floor`, `ceiling` and `trunc` answer doubles, as `NSExpression` does, also for integers.
///
/// ```swift
/// try FetchPredicate("duration / 60 > 20").sqlFragment(in: .sqlite) { .column($0, type: .integer) }
/// // ("\"duration\" / NULLIF(?, 0)) > ?", [60, 20]
/// ```
extension PredicateSQLCompiler {
    /// The type of a computed operand's values, or `nil` when unknown (a key without a type, or nil); throws
    /// for operands a function or an operator can't take, with the reason.
    func computedType(_ operand: PredicateOperand) throws(FetchPredicateError) -> AttributeType? {
        switch operand {
        case .key(let name): return keyType(name)
        case .value(let value): return Self.type(of: value)
        case .list, .variable: return nil
        case .subqueryCount: return .integer
        case .arithmetic(let op, let lhs, let rhs):
            let left = try numberType(lhs, for: op.rawValue), right = try numberType(rhs, for: op.rawValue)
            if op == .power { return .double }
            guard let left, let right else { return nil }
            return left == .double || right == .double ? .double : .integer
        case .function(let function, let operands):
            switch function {
            case .now: return .date
            case .length, .lowercase, .uppercase:
                for operand in operands {
                    let type = try computedType(operand)
                    guard type == nil || type == .string else {
                        throw FetchPredicateError(.invalidComparison, "\(function.rawValue) works on text, but '\(operand)' is \(Self.describe(type))")
                    }
                }
                return function == .length ? .integer : .string
            case .modulus:
                for operand in operands {
                    let type = try numberType(operand, for: function.rawValue)
                    guard type != .double else {
                        // PostgreSQL has no floating-point remainder that agrees with fmod to the last bit.
                        throw FetchPredicateError(.invalidComparison, "modulus:by: takes integers, but '\(operand)' is a double; compute x - y * trunc(x / y) instead")
                    }
                }
                return .integer
            case .negate, .abs:
                return try operands.first.flatMap { operand throws(FetchPredicateError) in try numberType(operand, for: function.rawValue) }
            case .sqrt, .floor, .ceiling, .trunc:
                for operand in operands { _ = try numberType(operand, for: function.rawValue) }
                return .double
            }
        }
    }

    /// An operand of arithmetic: an integer (booleans count as 0 and 1) or a double.
    private func numberType(_ operand: PredicateOperand, for what: String) throws(FetchPredicateError) -> AttributeType? {
        switch try computedType(operand) {
        case nil: return nil
        case .integer?, .bool?: return .integer
        case .double?: return .double
        case let type:
            let hint = type == .date ? " (dates don't compute, as in NSExpression; compare them with a date argument)" : ""
            throw FetchPredicateError(.invalidComparison, "'\(what)' computes with numbers, but '\(operand)' is \(Self.describe(type))\(hint)")
        }
    }

    static func type(of value: AttributeValue) -> AttributeType? {
        switch value {
        case .null: return nil
        case .integer: return .integer
        case .double: return .double
        case .bool: return .bool
        case .date: return .date
        case .string: return .string
        case .uuid: return .uuid
        case .binary: return .binary
        }
    }

    private static func describe(_ type: AttributeType?) -> String {
        guard let type else { return "nil" }
        return (type == .integer ? "an " : "a ") + type.rawValue
    }

    /// The SQL of an operand inside arithmetic or a function, its values appended to the arguments in order.
    mutating func computedSQL(_ operand: PredicateOperand) throws -> String {
        switch operand {
        case .variable(let name):
            throw FetchPredicateError(.argument, "the variable $\(name) has no value; give it with withSubstitutionVariables([\"\(name)\": value]) before fetching")
        case .key, .value, .list, .subqueryCount:
            return try writeOperand(operand)
        case _ where Self.takesNil(operand):
            // NULL, whatever the operator: written so, since PostgreSQL can't choose a function for an untyped NULL.
            return "NULL"
        case .arithmetic(let op, let lhs, let rhs):
            let left = try computedSQL(lhs), right = try computedSQL(rhs)
            switch op {
            case .add, .subtract, .multiply: return "(\(left) \(op.rawValue) \(right))"
            case .divide: return "(\(left) / NULLIF(\(right), 0))"
            case .power:
                return dialect.spelling.power(left, right)
            }
        case .function(let function, let operands):
            if function == .now { return try writeOperand(.value(.date(Date()))) }
            var arguments: [String] = []
            for operand in operands { arguments.append(try computedSQL(operand)) }
            let x = arguments.first ?? "NULL"
            switch function {
            case .negate: return "(-\(x))"
            case .abs, .sqrt, .floor, .ceiling, .trunc, .length: return dialect.spelling.call(function, on: x)
            case .modulus: return "(\(x) % NULLIF(\(arguments.count > 1 ? arguments[1] : "NULL"), 0))"
            case .lowercase, .uppercase: return dialect.caseMapped(x, upper: function == .uppercase)
            case .now: return "NULL"
            }
        }
    }

    /// Whether one of the operator's or function's own operands is the literal nil.
    private static func takesNil(_ operand: PredicateOperand) -> Bool {
        switch operand {
        case .arithmetic(_, let lhs, let rhs): return [lhs, rhs].contains(.value(.null))
        case .function(_, let operands): return operands.contains(.value(.null))
        default: return false
        }
    }
}
