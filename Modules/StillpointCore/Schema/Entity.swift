/// A type that declares an entity of a schema, with typed attributes as static properties.
///
/// ```swift
/// enum Item: Entity {
///     static let uid = Attribute<Int32>("uid")
///     static let title = Attribute<String>("title", default: "")
///     static let entity = EntityDescription("Item", attributes: [uid, title])
/// }
/// let request = FetchRequest(Item.self, sortedBy: [.ascending(Item.uid)])
/// ```
///
/// Its metatype is `Sendable`: relationships read a destination's description when a predicate follows them, from
/// any context.
public protocol Entity: SendableMetatype {
    static var entity: EntityDescription { get }
    /// The entity's name, as relationships that reach it name it: the type's name unless declared otherwise.
    /// It is read without building ``entity``, so that two entities may each declare a relationship to the other.
    static var entityName: String { get }
}

extension Entity {
    public static var entityName: String { String(describing: Self.self) }
}
