/// An index over one or more attributes of an entity; a unique index is a uniqueness constraint.
///
/// ```swift
/// IndexDescription([Session.start])
/// IndexDescription([Session.key], isUnique: true)
/// ```
public struct IndexDescription: Sendable, Hashable {
    public var attributes: [String]
    public var isUnique: Bool

    public init(_ attributes: [any AttributeDeclaration], isUnique: Bool = false) {
        self.init(names: attributes.map(\.attributeDescription.name), isUnique: isUnique)
    }

    public init(names: [String], isUnique: Bool = false) {
        self.attributes = names
        self.isUnique = isUnique
    }

    /// The index's name in the store, derived from the entity and attributes so that it is stable.
    package func name(in entityName: String) -> String {
        (isUnique ? "unique_" : "index_") + ([entityName] + attributes).joined(separator: "_")
    }
}
