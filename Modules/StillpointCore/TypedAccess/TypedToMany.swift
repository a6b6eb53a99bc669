/// A to-many relationship of `Root` in a typed predicate: how many objects it reaches, and whether any, all or
/// none of them match a typed predicate of their own entity.
///
/// ```swift
/// FetchRequest(Notebook.self, matching: { $0.notes.count > 2 })                      // notes.@count > 2
/// FetchRequest(Notebook.self, matching: { $0.notes.any { $0.title.contains("knee") } })
/// FetchRequest(Notebook.self, matching: { $0.notes.count(where: { $0.words >= 100 }) >= 3 })
/// ```
///
/// `any`, `all`, `none` and `count(where:)` are `SUBQUERY(notes, $notes, …).@count` compared with 0 (or the
/// count), so the inner predicate may be any typed predicate of `Target`, with `&&`, `||`, `!` and relationships
/// of its own. `all` holds for an object without related objects, as `ALL` does.
public struct TypedToMany<Root: Entity, Target: Entity>: Sendable {
    /// The key path from `Root` to the relationship: `"notes"`.
    let path: String

    /// How many objects the relationship reaches (`notes.@count`).
    public var count: TypedCount<Root> {
        TypedCount(operand: .key(path + ".@count"))
    }

    /// How many of the objects the relationship reaches match `predicate`.
    public func count(where predicate: (EntityKeys<Target>) -> TypedPredicate<Target>) -> TypedCount<Root> {
        TypedCount(operand: .subqueryCount(relationship: path, variable: path, predicate(EntityKeys()).predicate.root))
    }

    /// Matches objects that reach at least one object matching `predicate`.
    public func any(_ predicate: (EntityKeys<Target>) -> TypedPredicate<Target>) -> TypedPredicate<Root> {
        count(where: predicate) > 0
    }

    /// Matches objects all of whose related objects match `predicate`; an object with none matches.
    public func all(_ predicate: (EntityKeys<Target>) -> TypedPredicate<Target>) -> TypedPredicate<Root> {
        count(where: { !predicate($0) }) == 0
    }

    /// Matches objects none of whose related objects match `predicate`.
    public func none(_ predicate: (EntityKeys<Target>) -> TypedPredicate<Target>) -> TypedPredicate<Root> {
        count(where: predicate) == 0
    }
}
