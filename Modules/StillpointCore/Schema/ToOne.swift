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
///
/// A required to-one (`isRequired: true`) must be set before a save: the save refuses an object without it.
///
/// ```swift
/// static let practitioner = ToOne<Practitioner>("practitioner", inverse: "sessions", isRequired: true)
/// ```
///
/// In a one-to-one, one side holds the column and the other is read through it, declared `isStored: false`:
///
/// ```swift
/// static let badge = ToOne<Badge>("badge", inverse: "person", isStored: false)   // in Person
/// static let person = ToOne<Person>("person", inverse: "badge")                  // in Badge: the column
/// ```
public struct ToOne<Destination: Entity>: RelationshipDeclaration {
    public let name: String
    public let inverse: String?
    public let deleteRule: DeleteRule
    /// Whether this side holds the column; `false` only for one side of a one-to-one.
    public let isStored: Bool
    /// Whether a save refuses an object that does not have the related object.
    public let isRequired: Bool

    public init(_ name: String, inverse: String? = nil, deleteRule: DeleteRule = .nullify, isStored: Bool = true,
                isRequired: Bool = false) {
        self.name = name
        self.inverse = inverse
        self.deleteRule = deleteRule
        self.isStored = isStored
        self.isRequired = isRequired
    }

    public var relationshipDescription: RelationshipDescription {
        var description = RelationshipDescription(
            name: name, destination: Destination.entityName, inverse: inverse, isToMany: false, deleteRule: deleteRule,
            isStored: isStored)
        description.isRequired = isRequired
        description.destinationEntity = { Destination.entity }
        return description
    }
}
