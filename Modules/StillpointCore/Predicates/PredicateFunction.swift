/// A function a predicate format can call on its operands, as `NSExpression` names them: `abs(duration)`,
/// `modulus:by:(duration, 60)`, `now()`, or `FUNCTION(duration, "abs")`.
///
/// ```swift
/// try FetchPredicate("abs(duration - 600) < 60 AND lowercase(kind) == 'yoga'")
/// ```
package enum PredicateFunction: String, Sendable, Hashable, CaseIterable {
    case abs, sqrt, floor, ceiling, trunc
    case modulus = "modulus:by:"
    case length = "length:"
    case lowercase, uppercase, now
    /// Unary minus, `-duration`; written `-(duration)` by descriptions.
    case negate = "-"

    /// Finds a function by how a format may spell it: `abs`, `abs:`, `ABS`, `modulus:by:`, `length`.
    init?(spelling: String) {
        let name = spelling.lowercased()
        guard name != "-" else { return nil }
        for function in Self.allCases where function != .negate {
            let canonical = function.rawValue
            if name == canonical || name + ":" == canonical || name == canonical + ":" {
                self = function
                return
            }
        }
        return nil
    }

    /// How many operands it takes.
    var arity: Int {
        switch self {
        case .now: return 0
        case .modulus: return 2
        default: return 1
        }
    }

    /// The names a format can call, for error messages.
    static let spellings = allCases.filter { $0 != .negate }.map(\.rawValue).joined(separator: ", ")
}

/// The arithmetic operators of a predicate format, loosest first: `+ -`, then `* /`, then `**`.
enum PredicateArithmeticOperator: String, Sendable, Hashable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", power = "**"

    /// Binds tighter when larger.
    var precedence: Int {
        switch self {
        case .add, .subtract: return 1
        case .multiply, .divide: return 2
        case .power: return 3
        }
    }
}
