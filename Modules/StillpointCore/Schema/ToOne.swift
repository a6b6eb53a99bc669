/// A typed to-one relationship, declared once and used for typed access.
///
/// ```swift
/// enum Session: Entity {
///     static let run = ToOne<ImportRun>("run", inverse: "sessions")
///     static let entity = EntityDescription("Session", attributes: [start, duration], relationships: [run])
/// }
///
/// session.set(Session.run, to: run)
/// let run = try session[Session.run]      // loaded from the store when first touched
/// ```
public struct ToOne<Destination: Entity>: RelationshipDeclaration {
    public let name: String
    public let inverse: String?
    public let deleteRule: DeleteRule

    public init(_ name: String, inverse: String? = nil, deleteRule: DeleteRule = .nullify) {
        self.name = name
        self.inverse = inverse
        self.deleteRule = deleteRule
    }

    public var relationshipDescription: RelationshipDescription {
        var description = RelationshipDescription(
            name: name, destination: Destination.entityName, inverse: inverse, isToMany: false, deleteRule: deleteRule)
        description.destinationEntity = { Destination.entity }
        return description
    }
}
