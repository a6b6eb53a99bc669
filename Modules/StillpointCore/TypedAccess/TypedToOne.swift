/// A to-one relationship of `Root` in a typed predicate: its members are the related entity's, compared as
/// `Root`'s key paths (`batch.name == "morning"`); a missing related object matches `== nil` only.
///
/// ```swift
/// FetchRequest(Entry.self, matching: { $0.batch.name == "morning" })   // batch.name == "morning"
/// FetchRequest(Entry.self, matching: { $0.batch.isNil })               // batch == nil
/// ```
@dynamicMemberLookup
public struct TypedToOne<Root: Entity, Target: Entity>: Sendable {
    /// The key path from `Root` to the relationship: `"batch"`.
    let path: String

    /// An attribute of the related object, as a key path of `Root`.
    public subscript<Value>(dynamicMember attribute: KeyPath<Target.Type, Attribute<Value>>) -> TypedAttribute<Root, Value> {
        TypedAttribute(path: path + "." + Target.self[keyPath: attribute].name)
    }

    /// A to-many relationship of the related object, as a key path of `Root`: `$0.batch.entries.count`.
    public subscript<Next>(dynamicMember relationship: KeyPath<Target.Type, ToMany<Next>>) -> TypedReachedToMany<Root, Next> {
        TypedReachedToMany(path: path + "." + Target.self[keyPath: relationship].name)
    }

    /// A to-one relationship of the related object: `$0.entry.batch.name`.
    public subscript<Next>(dynamicMember relationship: KeyPath<Target.Type, ToOne<Next>>) -> TypedToOne<Root, Next> {
        TypedToOne<Root, Next>(path: path + "." + Target.self[keyPath: relationship].name)
    }

    /// Matches objects without the related object (`batch == nil`).
    public var isNil: TypedPredicate<Root> {
        TypedPredicate(FetchPredicate(root: .comparison(PredicateComparison(lhs: .key(path), op: .equal, options: [], rhs: .value(.null)))))
    }
}
