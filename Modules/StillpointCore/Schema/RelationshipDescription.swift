/// The stored shape of one relationship: its name, destination entity, inverse, cardinality and delete rule.
///
/// A to-one relationship is stored as a column of the entity's table that holds the related row's id, with a
/// foreign key and an index. A to-many relationship is not stored: it is the inverse of a to-one relationship of
/// its destination, read through that column. So the two sides of a relationship are one value, and stay in step
/// in every context and across merges.
public struct RelationshipDescription: Sendable, Hashable {
    public var name: String
    /// The name of the entity the relationship reaches.
    public var destination: String
    /// The name of the destination's relationship that points back, if any. A to-many relationship must have a
    /// to-one inverse, which holds the stored column.
    public var inverse: String?
    public var isToMany: Bool
    public var deleteRule: DeleteRule
    /// Whether a to-one relationship holds the column: `false` for the side of a one-to-one that is read through
    /// its inverse's column (one side of a one-to-one holds it). Always `false` for a to-many.
    public var isStored: Bool
    /// Whether a saved object must have the related object: a to-one that holds its column only. A context's save
    /// refuses an object without it (``SaveError``); the column stays nullable in the store, so that a migration
    /// step can fill it in for the rows an older release wrote.
    public var isRequired = false
    /// The destination's description, read when a predicate follows the relationship (not when the entity is
    /// made, so that two entities may reach each other); `nil` for a description made without its type.
    package var destinationEntity: (@Sendable () -> EntityDescription)?
    /// Whether the row goes when the row it reaches is deleted: the sides of a many-to-many's link table.
    package var isDeletedWithDestination = false

    public init(name: String, destination: String, inverse: String?, isToMany: Bool, deleteRule: DeleteRule = .nullify, isStored: Bool = true) {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.isToMany = isToMany
        self.deleteRule = deleteRule
        self.isStored = isStored && !isToMany
    }

    /// Whether the relationship is read through its inverse's column: a to-many, or the unstored side of a
    /// one-to-one.
    package var isReadThroughInverse: Bool { !isStored }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.name == rhs.name && lhs.destination == rhs.destination && lhs.inverse == rhs.inverse && lhs.isToMany == rhs.isToMany
            && lhs.deleteRule == rhs.deleteRule && lhs.isStored == rhs.isStored && lhs.isRequired == rhs.isRequired
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(destination)
    }

    /// The column of a to-one relationship: the related row's id, or null.
    package var column: AttributeDescription {
        var column = AttributeDescription(name: name, type: .integer, isOptional: true)
        column.references = destination
        column.isDeletedWithReference = isDeletedWithDestination
        column.isRequiredReference = isRequired && isStored
        return column
    }
}

/// Anything that declares a relationship: the typed ``ToOne`` and ``ToMany``, and plain descriptions.
public protocol RelationshipDeclaration: Sendable {
    var relationshipDescription: RelationshipDescription { get }
}

extension RelationshipDescription: RelationshipDeclaration {
    public var relationshipDescription: RelationshipDescription { self }
}
