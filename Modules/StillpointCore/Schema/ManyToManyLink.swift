/// The table that stores a many-to-many relationship: a row per related pair, with a column that refers to each
/// side. ``Schema`` adds one per pair of many-to-many relationships, named after the side whose entity and name
/// sort first (`_Entry_tags`), with the columns `source` (that side's objects) and `target` (the other's).
package struct ManyToManyLink: Sendable {
    /// The link table's entity.
    package let entityName: String
    /// The column that refers to the object whose relationship is read, and the one that refers to what it reaches.
    package let ownColumn: String
    package let otherColumn: String

    /// The link of `relationship` of `entity`, whose destination's inverse is to-many too.
    package init(_ relationship: RelationshipDescription, of entity: String) {
        let own = (entity, relationship.name), other = (relationship.destination, relationship.inverse ?? "")
        let ownFirst = (own.0, own.1) <= (other.0, other.1)
        let first = ownFirst ? own : other
        entityName = "_\(first.0)_\(first.1)"
        ownColumn = ownFirst ? "source" : "target"
        otherColumn = ownFirst ? "target" : "source"
    }

    /// The link table's description: a column, foreign key and index for each side.
    static func entity(between first: EntityDescription, _ relationship: RelationshipDescription, and second: EntityDescription) -> EntityDescription {
        func side(_ name: String, _ destination: EntityDescription) -> RelationshipDescription {
            var description = RelationshipDescription(name: name, destination: destination.name, inverse: nil, isToMany: false)
            description.destinationEntity = { destination }
            description.isDeletedWithDestination = true
            return description
        }
        let link = ManyToManyLink(relationship, of: first.name)
        return EntityDescription(link.entityName, attributes: [], relationships: [side("source", first), side("target", second)])
    }
}

extension RelationshipDescription {
    /// Whether the relationship and its inverse in `destination` are both to-many.
    package func isManyToMany(in destination: EntityDescription) -> Bool {
        isToMany && inverse.flatMap { destination.relationship(named: $0) }?.isToMany == true
    }
}
