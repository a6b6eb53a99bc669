import Foundation

/// Arithmetic and functions in memory, computed as the SQL of ``PredicateSQLCompiler`` computes them.
///
/// Two integers give an integer (`7 / 2` is 3, as in `NSExpression`, SQLite and PostgreSQL), a double on either
/// side gives a double; NULL on either side, a division or modulus by zero, and a result that isn't a number
/// (`sqrt(-1)`, `0.0 / 0.0`) give NULL, which no comparison but `== nil` matches.
///
/// ```swift
/// PredicateEvaluator.computed(.arithmetic(.divide, .key("duration"), .value(.integer(60))), subject) // .integer(10) for 600
/// ```
extension PredicateEvaluator {
    static func computed(_ operand: PredicateOperand, _ subject: some PredicateSubject) -> AttributeValue {
        switch operand {
        case .key(let name): return subject.value(forKeyPath: name)
        case .value(let value): return value
        case .list, .variable: return .null
        case .subqueryCount(let relationship, _, let inner):
            return .integer(Int64(subject.related(through: relationship).filter { evaluate(inner, $0) }.count))
        case .arithmetic(let op, let lhs, let rhs):
            return arithmetic(op, computed(lhs, subject), computed(rhs, subject))
        case .function(let function, let operands):
            return apply(function, operands.map { computed($0, subject) })
        }
    }

    /// A number as arithmetic reads it: an integer (booleans are 0 and 1) or a double; nothing else computes.
    private enum Number {
        case integer(Int64)
        case double(Double)

        init?(_ value: AttributeValue) {
            switch value {
            case .integer(let value): self = .integer(value)
            case .bool(let value): self = .integer(value ? 1 : 0)
            case .double(let value): self = .double(value)
            default: return nil
            }
        }

        var double: Double {
            switch self {
            case .integer(let value): return Double(value)
            case .double(let value): return value
            }
        }
    }

    /// A double result; NaN is NULL, as SQLite stores it.
    private static func real(_ value: Double) -> AttributeValue {
        value.isNaN ? .null : .double(value)
    }

    private static func arithmetic(_ op: PredicateArithmeticOperator, _ lhs: AttributeValue, _ rhs: AttributeValue) -> AttributeValue {
        guard let left = Number(lhs), let right = Number(rhs) else { return .null }
        if op == .power { return real(Foundation.pow(left.double, right.double)) }
        if case .integer(let a) = left, case .integer(let b) = right {
            let result: (partialValue: Int64, overflow: Bool)
            switch op {
            case .add: result = a.addingReportingOverflow(b)
            case .subtract: result = a.subtractingReportingOverflow(b)
            case .multiply: result = a.multipliedReportingOverflow(by: b)
            default:
                guard b != 0 else { return .null }
                result = a.dividedReportingOverflow(by: b)
            }
            // Past Int64, SQLite answers in doubles (PostgreSQL refuses the statement).
            guard result.overflow else { return .integer(result.partialValue) }
            return arithmetic(op, .double(Double(a)), .double(Double(b)))
        }
        let a = left.double, b = right.double
        switch op {
        case .add: return real(a + b)
        case .subtract: return real(a - b)
        case .multiply: return real(a * b)
        default: return b == 0 ? .null : real(a / b)
        }
    }

    private static func apply(_ function: PredicateFunction, _ values: [AttributeValue]) -> AttributeValue {
        if function == .now { return .date(Date()) }
        guard let first = values.first, !first.isNull else { return .null }
        switch function {
        case .length:
            return text(of: first).map { .integer(Int64($0.unicodeScalars.count)) } ?? .null
        // Foundation's case mapping (NSString's), which knows context: a final Σ lowercases to ς.
        case .lowercase:
            return text(of: first).map { .string($0.lowercased(with: nil)) } ?? .null
        case .uppercase:
            return text(of: first).map { .string($0.uppercased(with: nil)) } ?? .null
        default:
            break
        }
        guard let number = Number(first) else { return .null }
        switch function {
        case .negate:
            return arithmetic(.subtract, .integer(0), first)
        case .abs:
            if case .integer(let value) = number {
                return value == .min ? .double(-Double(value)) : .integer(Swift.abs(value))
            }
            return real(Swift.abs(number.double))
        case .sqrt:
            return number.double < 0 ? .null : real(number.double.squareRoot())
        case .floor: return real(number.double.rounded(.down))
        case .ceiling: return real(number.double.rounded(.up))
        case .trunc: return real(number.double.rounded(.towardZero))
        case .modulus:
            // Integers only (the compiler refuses doubles); the remainder has the dividend's sign, as C's `%`.
            guard values.count == 2, case .integer(let a) = number, case .integer(let b)? = Number(values[1]), b != 0 else { return .null }
            return .integer(a.remainderReportingOverflow(dividingBy: b).partialValue)
        default:
            return .null
        }
    }
}
