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
public protocol Entity {
    static var entity: EntityDescription { get }
}
