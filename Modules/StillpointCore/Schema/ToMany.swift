/// A typed to-many relationship: the inverse of a to-one relationship of `Destination`, which stores it.
///
/// ```swift
/// enum ImportRun: Entity {
///     static let sessions = ToMany<Session>("sessions", inverse: "run", deleteRule: .cascade)
///     static let entity = EntityDescription("ImportRun", attributes: [file], relationships: [sessions])
/// }
///
/// let sessions = try run[ImportRun.sessions]   // the sessions whose `run` is this run
/// ```
public struct ToMany<Destination: Entity>: RelationshipDeclaration {
    public let name: String
    public let inverse: String
    public let deleteRule: DeleteRule

    public init(_ name: String, inverse: String, deleteRule: DeleteRule = .nullify) {
        self.name = name
        self.inverse = inverse
        self.deleteRule = deleteRule
    }

    public var relationshipDescription: RelationshipDescription {
        var description = RelationshipDescription(
            name: name, destination: Destination.entityName, inverse: inverse, isToMany: true, deleteRule: deleteRule)
        description.destinationEntity = { Destination.entity }
        return description
    }
}
