/// The set of entities a store holds.
///
/// ```swift
/// let schema = try Schema([Item.self, Session.self])
/// ```
///
/// A schema may declare its versions, with the steps that migrate a store's data between them
/// (``SchemaVersion``, <doc:Migrations>).
public struct Schema: Sendable, Hashable {
    public let entities: [EntityDescription]
    /// The versions, oldest first; empty when the schema declares none.
    public let versions: [SchemaVersion]
    private let entitiesByName: [String: EntityDescription]
    /// By entity name, the to-one relationships without an inverse that reach it, and the entities that hold them.
    private let unpairedReferencesByTarget: [String: [(entity: EntityDescription, relationship: String)]]

    /// The number of the latest version, or `nil` when the schema declares no versions.
    public var latestVersion: Int? { versions.last?.number }

    public init(_ entityTypes: [any Entity.Type], versions: [SchemaVersion] = []) throws(SchemaError) {
        try self.init(entities: entityTypes.map { $0.entity }, versions: versions)
    }

    public init(entities: [EntityDescription], versions: [SchemaVersion] = []) throws(SchemaError) {
        var byName: [String: EntityDescription] = [:]
        for entity in entities {
            try Self.validate(entity)
            guard byName.updateValue(entity, forKey: entity.name) == nil else {
                throw SchemaError.invalidDeclaration("the entity '\(entity.name)' is declared twice")
            }
        }
        for entity in entities {
            for relationship in entity.relationships {
                try Self.validate(relationship, of: entity, in: byName)
            }
            if let previous = entity.renamedFrom, byName[previous] != nil {
                throw SchemaError.invalidDeclaration("'\(entity.name)' is renamed from '\(previous)', which the schema still declares")
            }
        }
        var previous = 0
        for version in versions {
            guard version.number > previous else {
                throw SchemaError.invalidDeclaration("the schema version \(version.number) must be greater than \(previous): list versions oldest first, from 1")
            }
            previous = version.number
        }
        // A table per many-to-many pair, made from the side that names it.
        var links: [EntityDescription] = []
        for entity in entities {
            for relationship in entity.relationships {
                guard let destination = byName[relationship.destination], relationship.isManyToMany(in: destination),
                      ManyToManyLink(relationship, of: entity.name).ownColumn == "source" else { continue }
                let link = ManyToManyLink.entity(between: entity, relationship, and: destination)
                guard byName[link.name] == nil else {
                    throw SchemaError.invalidDeclaration("'\(entity.name).\(relationship.name)' needs the link table '\(link.name)', whose name another many-to-many takes; rename one of them")
                }
                links.append(link)
                byName[link.name] = link
            }
        }
        self.entities = entities + links
        self.versions = versions
        self.entitiesByName = byName
        var unpaired: [String: [(entity: EntityDescription, relationship: String)]] = [:]
        for entity in entities {
            for relationship in entity.relationships where relationship.isStored && relationship.inverse == nil {
                unpaired[relationship.destination, default: []].append((entity, relationship.name))
            }
        }
        self.unpairedReferencesByTarget = unpaired
    }

    /// The to-one relationships without an inverse that reach `entityName`, with the entities that hold them:
    /// deleting an object of it clears them, as nothing else would.
    package func unpairedReferences(to entityName: String) -> [(entity: EntityDescription, relationship: String)] {
        unpairedReferencesByTarget[entityName] ?? []
    }

    /// The entity named `name`, or an error with the nearest valid name.
    public func entity(named name: String) throws(SchemaError) -> EntityDescription {
        guard let entity = entitiesByName[name] else {
            throw SchemaError.unknownEntity(name, suggestion: NameSuggestion.nearestName(to: name, in: entities.map(\.name)))
        }
        return entity
    }

    private static func validate(_ entity: EntityDescription) throws(SchemaError) {
        guard isIdentifier(entity.name), !entity.name.hasPrefix("_") else {
            throw SchemaError.invalidDeclaration("'\(entity.name)' is not a valid entity name: use letters, digits and underscores, not starting with '_'")
        }
        var seen: Set<String> = []
        for name in entity.attributes.map(\.name) + entity.relationships.map(\.name) {
            guard isIdentifier(name), !name.hasPrefix("_") else {
                throw SchemaError.invalidDeclaration("'\(entity.name).\(name)' is not a valid attribute or relationship name: names starting with '_' are reserved")
            }
            guard seen.insert(name).inserted else {
                throw SchemaError.invalidDeclaration("'\(entity.name).\(name)' is declared twice")
            }
        }
        for attribute in entity.attributes {
            if let previous = attribute.renamedFrom, seen.contains(previous) {
                throw SchemaError.invalidDeclaration("'\(entity.name).\(attribute.name)' is renamed from '\(previous)', which the entity still declares")
            }
        }
        for index in entity.indexes {
            for name in index.attributes where !seen.contains(name) {
                throw SchemaError.unknownAttribute(entity: entity.name, attribute: name, suggestion: NameSuggestion.nearestName(to: name, in: Array(seen)))
            }
        }
    }

    /// A relationship must reach a declared entity, and its inverse must point back: a to-many's inverse is the
    /// to-one that stores it.
    private static func validate(_ relationship: RelationshipDescription, of entity: EntityDescription,
                                 in entities: [String: EntityDescription]) throws(SchemaError) {
        let label = "'\(entity.name).\(relationship.name)'"
        guard let destination = entities[relationship.destination] else {
            throw SchemaError.invalidDeclaration(
                "\(label) reaches '\(relationship.destination)', which the schema does not declare: add it to the schema, or declare `static let entityName` on its type if its entity has another name")
        }
        guard let inverseName = relationship.inverse else {
            guard relationship.isStored else {
                throw SchemaError.invalidDeclaration("\(label) is read through its inverse's column and needs an inverse: a to-one relationship of '\(destination.name)' that points back")
            }
            return
        }
        guard let inverse = destination.relationship(named: inverseName) else {
            throw SchemaError.invalidDeclaration(
                "\(label) names '\(destination.name).\(inverseName)' as its inverse, which is not a relationship of '\(destination.name)'")
        }
        guard inverse.destination == entity.name, inverse.inverse == relationship.name else {
            throw SchemaError.invalidDeclaration(
                "\(label) and '\(destination.name).\(inverseName)' must name each other as inverses and reach each other's entity")
        }
        if relationship.isToMany && inverse.isToMany && entity.name == destination.name && relationship.name == inverseName {
            throw SchemaError.invalidDeclaration("\(label) is a many-to-many that is its own inverse; declare two relationships that name each other (friends and friendOf)")
        }
        if !relationship.isToMany && !inverse.isToMany && relationship.isStored == inverse.isStored {
            throw SchemaError.invalidDeclaration(
                "\(label) and its inverse are a one-to-one, whose reference one side holds: declare the other side with `isStored: false`")
        }
        if !relationship.isToMany && inverse.isToMany && !relationship.isStored {
            throw SchemaError.invalidDeclaration("\(label) is the to-one side of a to-many, which holds the column: drop `isStored: false`")
        }
    }

    private static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.entities == rhs.entities && lhs.versions.map(\.number) == rhs.versions.map(\.number)
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(entities) }
}
