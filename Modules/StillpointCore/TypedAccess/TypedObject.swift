/// A managed object of the entity `Root`, read and written through `Root`'s own attributes and relationships as
/// members: another entity's attribute does not compile, where `object[Other.attribute]` only fails at the save.
///
/// ```swift
/// try await context.perform { context in
///     for entry in try context.fetch(Entry.self, matching: { $0.minutes > 5 }) {
///         entry.minutes += 1                  // entry.name: error, Entry has no member 'name'
///         let batch = try entry.batch         // TypedObject<Batch>?
///         print(entry.title, batch?.name ?? "-")
///     }
///     try await context.save()
/// }
/// ```
///
/// Like the object it wraps, it is not `Sendable`: it stays inside its context.
@dynamicMemberLookup
public struct TypedObject<Root: Entity> {
    /// The object itself, for the untyped API (``ManagedObject/objectID``, deleting, setting relationships).
    public let object: ManagedObject

    /// The object as one of `Root`, or `nil` when it is an object of another entity.
    public init?(_ object: ManagedObject) {
        guard object.entity.name == Root.entityName else { return nil }
        self.object = object
    }

    /// An attribute of `Root`: `entry.minutes`, read and written as ``ManagedObject``'s typed subscript does.
    public subscript<Value>(dynamicMember attribute: KeyPath<Root.Type, Attribute<Value>>) -> Value {
        get { object[Root.self[keyPath: attribute]] }
        nonmutating set { object[Root.self[keyPath: attribute]] = newValue }
    }

    /// The object a to-one relationship of `Root` reaches, loaded from the store when first touched.
    public subscript<Target>(dynamicMember relationship: KeyPath<Root.Type, ToOne<Target>>) -> TypedObject<Target>? {
        get throws { try object[Root.self[keyPath: relationship]].map { TypedObject<Target>(unchecked: $0) } }
    }

    /// The objects a to-many relationship of `Root` reaches.
    public subscript<Target>(dynamicMember relationship: KeyPath<Root.Type, ToMany<Target>>) -> [TypedObject<Target>] {
        get throws { try object[Root.self[keyPath: relationship]].map { TypedObject<Target>(unchecked: $0) } }
    }

    /// An object the relationship or request that found it says is of `Root`.
    init(unchecked object: ManagedObject) {
        self.object = object
    }
}
