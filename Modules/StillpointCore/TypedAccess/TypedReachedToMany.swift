/// A to-many relationship reached through a to-one in a typed predicate of `Root` (`$0.notebook.notes`): its
/// count only, since a SUBQUERY (`any`, `all`, `none`, `count(where:)`) reads one relationship of the object.
///
/// ```swift
/// FetchRequest(Note.self, matching: { $0.notebook.notes.count > 1 })   // notebook.notes.@count > 1
/// ```
public struct TypedReachedToMany<Root: Entity, Target: Entity>: Sendable {
    /// The key path from `Root`: `"notebook.notes"`.
    let path: String

    /// How many objects the relationship reaches (`notebook.notes.@count`); 0 without the to-one's object.
    public var count: TypedCount<Root> {
        TypedCount(operand: .key(path + ".@count"))
    }
}
