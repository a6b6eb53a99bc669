/// The description of an entity: its name, attributes, relationships, indexes and uniqueness constraints.
///
/// Each entity is stored in a table of its name, with a row id and a version column beside the attributes, and
/// a column for each to-one relationship.
///
/// ```swift
/// static let entity = EntityDescription(
///     "Item", attributes: [uid, title], indexes: [IndexDescription([uid], isUnique: true)])
/// ```
public struct EntityDescription: Sendable, Hashable {
    /// Every managed object holds its entity's description: one reference makes holding it cost one retain.
    private final class Storage: Sendable {
        let name: String
        let attributes: [AttributeDescription]
        let relationships: [RelationshipDescription]
        let storedAttributes: [AttributeDescription]
        let referencePositions: [(name: String, position: Int)]
        let indexes: [IndexDescription]
        let renamedFrom: String?
        let attributePositions: [String: Int]
        let initialValues: ContiguousArray<AttributeValue>
        let positionsCheckedWhenRead: [Int]

        init(name: String, attributes: [AttributeDescription], relationships: [RelationshipDescription],
             indexes: [IndexDescription], renamedFrom: String?) {
            self.name = name
            self.attributes = attributes
            self.relationships = relationships
            let columns = relationships.filter(\.isStored).map(\.column)
            self.storedAttributes = attributes + columns
            self.referencePositions = columns.enumerated().map { ($1.name, attributes.count + $0) }
            // Each relationship column is indexed: reading a to-many, and the delete rules, look rows up by it.
            self.indexes = indexes + columns.map { IndexDescription(names: [$0.name]) }
            self.renamedFrom = renamedFrom
            var positions: [String: Int] = [:]
            for (position, attribute) in storedAttributes.enumerated() {
                positions[attribute.name] = position
            }
            self.attributePositions = positions
            self.initialValues = ContiguousArray(storedAttributes.map(\.initialValue))
            let stored = storedAttributes
            self.positionsCheckedWhenRead = stored.indices.filter { stored[$0].needsCheckWhenRead }
        }
    }

    private let storage: Storage

    public var name: String { storage.name }
    /// The declared attributes, in order.
    public var attributes: [AttributeDescription] { storage.attributes }
    /// The declared relationships, in order.
    public var relationships: [RelationshipDescription] { storage.relationships }
    /// The stored columns besides the row id and version: the attributes, then a column per to-one relationship.
    /// A managed object's values and a row's values are in this order.
    package var storedAttributes: [AttributeDescription] { storage.storedAttributes }
    /// The name and value position of each to-one relationship's column.
    package var referencePositions: [(name: String, position: Int)] { storage.referencePositions }
    /// The declared indexes, and one on each to-one relationship's column.
    public var indexes: [IndexDescription] { storage.indexes }
    /// The entity's previous name, when it was renamed: the store renames the table and keeps its rows.
    public var renamedFrom: String? { storage.renamedFrom }
    /// The description's identity: copies of one description share it.
    package var identity: ObjectIdentifier { ObjectIdentifier(storage) }

    /// The position of each stored attribute in ``storedAttributes``, for constant-time access by name.
    package var attributePositions: [String: Int] { storage.attributePositions }
    /// The values of a new object: each attribute's default, or null.
    var initialValues: ContiguousArray<AttributeValue> { storage.initialValues }
    /// The positions of the attributes whose stored values a read checks (``checkStoredValues(_:rowID:)``).
    var positionsCheckedWhenRead: [Int] { storage.positionsCheckedWhenRead }

    /// `renamedFrom` is the entity's previous name, if it was renamed (see <doc:Migrations>):
    ///
    /// ```swift
    /// static let entity = EntityDescription("Session", attributes: [start, duration], renamedFrom: "Sitting")
    /// ```
    ///
    /// `relationships` are its to-one and to-many relationships (see ``ToOne`` and ``ToMany``):
    ///
    /// ```swift
    /// static let entity = EntityDescription("Session", attributes: [start, duration], relationships: [run])
    /// ```
    public init(
        _ name: String, attributes: [any AttributeDeclaration], relationships: [any RelationshipDeclaration] = [],
        indexes: [IndexDescription] = [], renamedFrom: String? = nil
    ) {
        storage = Storage(
            name: name, attributes: attributes.map(\.attributeDescription),
            relationships: relationships.map(\.relationshipDescription), indexes: indexes, renamedFrom: renamedFrom)
    }

    /// The attribute named `name`, if the entity has one.
    public func attribute(named name: String) -> AttributeDescription? {
        attributePositions[name].flatMap { $0 < attributes.count ? attributes[$0] : nil }
    }

    /// The relationship named `name`, if the entity has one.
    public func relationship(named name: String) -> RelationshipDescription? {
        relationships.first { $0.name == name }
    }

    /// The attribute named `name`, or an error that names the entity, the attribute and the nearest name.
    ///
    /// ```swift
    /// try Session.entity.checkedAttribute(named: "duraton")   // Session has no attribute 'duraton'; did you mean 'duration'?
    /// ```
    public func checkedAttribute(named name: String) throws(SchemaError) -> AttributeDescription {
        storedAttributes[try position(of: name)]
    }

    /// The uniqueness constraints: the attribute lists of the unique indexes.
    public var uniquenessConstraints: [[String]] {
        indexes.filter(\.isUnique).map(\.attributes)
    }

    /// The position of an attribute, or an error that names the entity and the attribute.
    package func position(of name: String) throws(SchemaError) -> Int {
        guard let position = attributePositions[name] else {
            throw SchemaError.unknownAttribute(
                entity: self.name, attribute: name, suggestion: NameSuggestion.nearestName(to: name, in: storedAttributes.map(\.name)))
        }
        return position
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.storage === rhs.storage || lhs.name == rhs.name && lhs.attributes == rhs.attributes
            && lhs.relationships == rhs.relationships && lhs.indexes == rhs.indexes && lhs.renamedFrom == rhs.renamedFrom
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
    }
}
