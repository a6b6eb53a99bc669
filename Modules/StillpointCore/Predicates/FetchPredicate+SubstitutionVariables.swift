extension FetchPredicate {
    /// The predicate with each `$NAME` replaced by the value given for `NAME`, as
    /// `NSPredicate.withSubstitutionVariables(_:)` does: parse once, fill in the values for each fetch.
    ///
    /// ```swift
    /// let template = try FetchPredicate("kind ==[c] $KIND AND duration >= $LEAST")
    /// let yoga = try template.withSubstitutionVariables(["KIND": "yoga", "LEAST": 600])
    /// ```
    ///
    /// A variable left without a value stays in the predicate: fetching with it fails with an error that names
    /// it, and in memory it is nil. A list (for `IN` and `BETWEEN`) is given as an array; it is refused elsewhere.
    public func withSubstitutionVariables(_ variables: [String: any PredicateArgumentConvertible]) throws(FetchPredicateError) -> FetchPredicate {
        FetchPredicate(root: try root.substituting(variables.mapValues(\.predicateArgument)))
    }

    /// The names of the `$NAME` variables still waiting for a value, in order of first appearance.
    public var substitutionVariables: [String] {
        var names: [String] = []
        root.forEachOperand { operand in
            if case .variable(let name) = operand, !names.contains(name) { names.append(name) }
        }
        return names
    }
}

extension PredicateNode {
    func substituting(_ variables: [String: PredicateArgument]) throws(FetchPredicateError) -> PredicateNode {
        switch self {
        case .constant: return self
        case .comparison(var comparison):
            let takesList = comparison.op == .in || comparison.op == .between
            comparison.lhs = try comparison.lhs.substituting(variables, takesList: false)
            comparison.rhs = try comparison.rhs.substituting(variables, takesList: takesList)
            if comparison.op == .between, case .list(let bounds) = comparison.rhs, bounds.count != 2 {
                throw FetchPredicateError(.argument, "BETWEEN needs exactly two values {low, high}, got \(bounds.count)")
            }
            return .comparison(comparison)
        case .not(let operand): return .not(try operand.substituting(variables))
        case .and(let operands):
            var substituted: [PredicateNode] = []
            for operand in operands { substituted.append(try operand.substituting(variables)) }
            return .and(substituted)
        case .or(let operands):
            var substituted: [PredicateNode] = []
            for operand in operands { substituted.append(try operand.substituting(variables)) }
            return .or(substituted)
        case .quantified(let quantifier, let relationship, let inner):
            return .quantified(quantifier, relationship: relationship, try inner.substituting(variables))
        }
    }

    /// Calls `body` with every operand of every comparison, inside computed operands and SUBQUERYs too.
    func forEachOperand(_ body: (PredicateOperand) -> Void) {
        func visit(_ operand: PredicateOperand) {
            body(operand)
            switch operand {
            case .arithmetic(_, let lhs, let rhs): visit(lhs); visit(rhs)
            case .function(_, let operands): operands.forEach(visit)
            case .subqueryCount(_, _, let inner): inner.forEachOperand(body)
            case .key, .value, .list, .variable: break
            }
        }
        switch self {
        case .constant: break
        case .comparison(let comparison): visit(comparison.lhs); visit(comparison.rhs)
        case .not(let operand): operand.forEachOperand(body)
        case .and(let operands), .or(let operands): operands.forEach { $0.forEachOperand(body) }
        case .quantified(_, _, let inner): inner.forEachOperand(body)
        }
    }
}

extension PredicateOperand {
    func substituting(_ variables: [String: PredicateArgument], takesList: Bool) throws(FetchPredicateError) -> PredicateOperand {
        switch self {
        case .variable(let name):
            switch variables[name] {
            case nil: return self
            case .value(let value)?:
                if takesList { throw FetchPredicateError(.argument, "$\(name) needs a list (an array) here, got \(value)") }
                return .value(value)
            case .array(let values)?:
                guard takesList else { throw FetchPredicateError(.argument, "$\(name) needs a single value here, got a list") }
                return .list(values)
            case .key(let key)?:
                if takesList { throw FetchPredicateError(.argument, "$\(name) needs a list (an array) here, got the key '\(key)'") }
                return .key(key)
            }
        case .arithmetic(let op, let lhs, let rhs):
            return .arithmetic(op, try lhs.substituting(variables, takesList: false), try rhs.substituting(variables, takesList: false))
        case .function(let function, let operands):
            var substituted: [PredicateOperand] = []
            for operand in operands { substituted.append(try operand.substituting(variables, takesList: false)) }
            return .function(function, substituted)
        case .subqueryCount(let relationship, let variable, let inner):
            return .subqueryCount(relationship: relationship, variable: variable, try inner.substituting(variables))
        case .key, .value, .list:
            return self
        }
    }
}
