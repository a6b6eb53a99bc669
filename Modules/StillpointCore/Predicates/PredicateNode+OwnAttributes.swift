extension PredicateNode {
    /// Whether the predicate reads only its entity's own attributes: no quantifier and no SUBQUERY.
    var readsOwnAttributesOnly: Bool {
        switch self {
        case .constant: return true
        case .comparison(let comparison): return comparison.lhs.readsOwnAttributesOnly && comparison.rhs.readsOwnAttributesOnly
        case .not(let operand): return operand.readsOwnAttributesOnly
        case .and(let operands), .or(let operands): return operands.allSatisfy(\.readsOwnAttributesOnly)
        case .quantified: return false
        }
    }
}

extension PredicateOperand {
    /// Whether the operand reads only its entity's own attributes: no key path and no SUBQUERY.
    var readsOwnAttributesOnly: Bool {
        switch self {
        case .key(let name): return !name.contains(".")
        case .value, .list, .variable: return true
        case .subqueryCount: return false
        case .arithmetic(_, let lhs, let rhs): return lhs.readsOwnAttributesOnly && rhs.readsOwnAttributesOnly
        case .function(_, let operands): return operands.allSatisfy(\.readsOwnAttributesOnly)
        }
    }
}
