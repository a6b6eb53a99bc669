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
        self.entities = entities
        self.versions = versions
        self.entitiesByName = byName
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
        for attribute in entity.attributes {
            guard isIdentifier(attribute.name), !attribute.name.hasPrefix("_") else {
                throw SchemaError.invalidDeclaration("'\(entity.name).\(attribute.name)' is not a valid attribute name: names starting with '_' are reserved")
            }
            guard seen.insert(attribute.name).inserted else {
                throw SchemaError.invalidDeclaration("'\(entity.name).\(attribute.name)' is declared twice")
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

    private static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.entities == rhs.entities && lhs.versions.map(\.number) == rhs.versions.map(\.number)
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(entities) }
}
