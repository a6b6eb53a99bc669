/// A number of related objects in a typed predicate of `Root`, compared with an integer.
///
/// ```swift
/// FetchRequest(Notebook.self, matching: { $0.notes.count >= 3 })   // notes.@count >= 3
/// ```
public struct TypedCount<Root: Entity>: Sendable {
    let operand: PredicateOperand

    public static func == (count: TypedCount, value: Int) -> TypedPredicate<Root> { count.comparison(.equal, value) }
    public static func != (count: TypedCount, value: Int) -> TypedPredicate<Root> { count.comparison(.notEqual, value) }
    public static func < (count: TypedCount, value: Int) -> TypedPredicate<Root> { count.comparison(.less, value) }
    public static func <= (count: TypedCount, value: Int) -> TypedPredicate<Root> { count.comparison(.lessOrEqual, value) }
    public static func > (count: TypedCount, value: Int) -> TypedPredicate<Root> { count.comparison(.greater, value) }
    public static func >= (count: TypedCount, value: Int) -> TypedPredicate<Root> { count.comparison(.greaterOrEqual, value) }

    private func comparison(_ op: PredicateOperator, _ value: Int) -> TypedPredicate<Root> {
        TypedPredicate(FetchPredicate(root: .comparison(PredicateComparison(lhs: operand, op: op, options: [], rhs: .value(value.attributeValue)))))
    }
}
