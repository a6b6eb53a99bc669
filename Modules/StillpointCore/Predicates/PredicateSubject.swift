/// What the in-memory evaluator reads: an object's values by key path (`duration`, `run.file`,
/// `sessions.@count`), and the objects a relationship reaches, for `ANY`, `ALL`, `NONE` and `SUBQUERY`.
protocol PredicateSubject {
    func value(forKeyPath keyPath: String) -> AttributeValue
    func related(through relationship: String) -> [any PredicateSubject]
}

/// Values by key, with no relationships: what ``FetchPredicate/evaluate(_:)`` reads.
struct KeyedValues: PredicateSubject {
    let valueForKey: (String) -> AttributeValue

    func value(forKeyPath keyPath: String) -> AttributeValue { valueForKey(keyPath) }
    func related(through relationship: String) -> [any PredicateSubject] { [] }
}

/// A collection operator of a to-many key path (`@count`, `@sum.duration`…), computed as the SQL computes it:
/// a sum of nothing is 0; an average, minimum or maximum of nothing is null.
enum CollectionOperator: String, CaseIterable {
    case count = "@count", sum = "@sum", average = "@avg", minimum = "@min", maximum = "@max"

    /// The value over `values` (the attribute's values of the related objects; for `@count`, one per object).
    func value(over values: [AttributeValue]) -> AttributeValue {
        if self == .count { return .integer(Int64(values.count)) }
        let present = values.filter { !$0.isNull }
        switch self {
        case .count:
            return .integer(Int64(values.count))
        case .sum:
            if present.allSatisfy({ if case .integer = $0 { return true } else { return false } }) {
                var total: Int64 = 0
                for case .integer(let value) in present {
                    let (sum, overflow) = total.addingReportingOverflow(value)
                    if overflow { return .double(present.compactMap(\.numericValue).reduce(0, +)) }
                    total = sum
                }
                return .integer(total)
            }
            return .double(present.compactMap(\.numericValue).reduce(0, +))
        case .average:
            let numbers = present.compactMap(\.numericValue)
            return numbers.isEmpty ? .null : .double(numbers.reduce(0, +) / Double(numbers.count))
        case .minimum:
            return present.min { PredicateEvaluator.compare($0, $1) == .orderedAscending } ?? .null
        case .maximum:
            return present.max { PredicateEvaluator.compare($0, $1) == .orderedAscending } ?? .null
        }
    }
}
