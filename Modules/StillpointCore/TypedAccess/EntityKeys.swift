/// The attributes and relationships of `Root`, as the closure of a typed predicate sees them: `$0.duration`
/// is `Root.duration`, and a name `Root` does not declare does not compile.
///
/// ```swift
/// FetchRequest(Entry.self, matching: { $0.minutes >= 10 && $0.batch.name == "morning" })
/// FetchRequest(Batch.self, matching: { $0.entries.any { $0.minutes > 25 } })
/// ```
///
/// It reads `Root`'s static properties through metatype key paths, so each member is the declaration itself,
/// with its value type.
@dynamicMemberLookup
public struct EntityKeys<Root: Entity>: Sendable {
    /// What a key path of the entity starts with: empty for `Root` itself, `"batch."` through a to-one.
    let prefix: String

    init(prefix: String = "") {
        self.prefix = prefix
    }

    /// An attribute of `Root`: `$0.duration`.
    public subscript<Value>(dynamicMember attribute: KeyPath<Root.Type, Attribute<Value>>) -> TypedAttribute<Root, Value> {
        TypedAttribute(path: prefix + Root.self[keyPath: attribute].name)
    }

    /// A to-many relationship of `Root`: `$0.notes`, for `.count`, `any`, `all` and `none`.
    public subscript<Target>(dynamicMember relationship: KeyPath<Root.Type, ToMany<Target>>) -> TypedToMany<Root, Target> {
        TypedToMany(path: prefix + Root.self[keyPath: relationship].name)
    }

    /// A to-one relationship of `Root`: `$0.batch.name` compares the related object's attribute.
    public subscript<Target>(dynamicMember relationship: KeyPath<Root.Type, ToOne<Target>>) -> TypedToOne<Root, Target> {
        TypedToOne(path: prefix + Root.self[keyPath: relationship].name)
    }
}
