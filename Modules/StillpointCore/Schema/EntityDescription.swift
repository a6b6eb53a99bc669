/// The description of an entity: its name, attributes, indexes and uniqueness constraints.
///
/// Each entity is stored in a table of its name, with a row id and a version column beside the attributes.
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
        let indexes: [IndexDescription]
        let attributePositions: [String: Int]
        let initialValues: ContiguousArray<AttributeValue>

        init(name: String, attributes: [AttributeDescription], indexes: [IndexDescription]) {
            self.name = name
            self.attributes = attributes
            self.indexes = indexes
            var positions: [String: Int] = [:]
            for (position, attribute) in attributes.enumerated() {
                positions[attribute.name] = position
            }
            self.attributePositions = positions
            self.initialValues = ContiguousArray(attributes.map(\.initialValue))
        }
    }

    private let storage: Storage

    public var name: String { storage.name }
    public var attributes: [AttributeDescription] { storage.attributes }
    public var indexes: [IndexDescription] { storage.indexes }
    /// The position of each attribute in ``attributes``, for constant-time access by name.
    package var attributePositions: [String: Int] { storage.attributePositions }
    /// The values of a new object: each attribute's default, or null.
    var initialValues: ContiguousArray<AttributeValue> { storage.initialValues }

    public init(_ name: String, attributes: [any AttributeDeclaration], indexes: [IndexDescription] = []) {
        storage = Storage(name: name, attributes: attributes.map(\.attributeDescription), indexes: indexes)
    }

    /// The attribute named `name`, if the entity has one.
    public func attribute(named name: String) -> AttributeDescription? {
        attributePositions[name].map { attributes[$0] }
    }

    /// The attribute named `name`, or an error that names the entity, the attribute and the nearest name.
    ///
    /// ```swift
    /// try Session.entity.checkedAttribute(named: "duraton")   // Session has no attribute 'duraton'; did you mean 'duration'?
    /// ```
    public func checkedAttribute(named name: String) throws(SchemaError) -> AttributeDescription {
        attributes[try position(of: name)]
    }

    /// The uniqueness constraints: the attribute lists of the unique indexes.
    public var uniquenessConstraints: [[String]] {
        indexes.filter(\.isUnique).map(\.attributes)
    }

    /// The position of an attribute, or an error that names the entity and the attribute.
    package func position(of name: String) throws(SchemaError) -> Int {
        guard let position = attributePositions[name] else {
            throw SchemaError.unknownAttribute(
                entity: self.name, attribute: name, suggestion: NameSuggestion.nearestName(to: name, in: attributes.map(\.name)))
        }
        return position
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.storage === rhs.storage || lhs.name == rhs.name && lhs.attributes == rhs.attributes && lhs.indexes == rhs.indexes
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
    }
}
