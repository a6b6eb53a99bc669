import Foundation

/// One object of a ``LiveSnapshot``, as Sendable values: its ID, its version and the values of its attributes
/// as they were saved when the snapshot was made.
///
/// ```swift
/// let row = snapshot[LivePosition(section: 0, item: 0)]
/// let minutes = (row[Session.duration] ?? 0) / 60
/// let kind = row["kind"]                      // an AttributeValue
/// ```
public struct LiveRow: Sendable, Hashable {
    /// The row's id in the store; ``objectID`` is made from it.
    public let rowID: Int64
    /// The row's version: it grows with each saved change.
    public let version: Int64
    /// Every attribute's value, in the entity's attribute order.
    public let values: ContiguousArray<AttributeValue>
    public let entity: EntityDescription

    package init(rowID: Int64, version: Int64, values: ContiguousArray<AttributeValue>, entity: EntityDescription) {
        self.rowID = rowID
        self.version = version
        self.values = values
        self.entity = entity
    }

    /// The object's ID, to load it in a context: `context.existingObject(with: row.objectID)`.
    public var objectID: ObjectID { ObjectID(entityName: entity.name, rowID: rowID) }

    /// The value of the attribute named `name`; `.null` for a name the entity does not have.
    public subscript(name: String) -> AttributeValue {
        entity.attributePositions[name].map { values[$0] } ?? .null
    }

    /// The typed value of an attribute, or `nil` when it is missing or of another type.
    public subscript<Value: AttributeValueConvertible>(attribute: Attribute<Value>) -> Value? {
        Value(attributeValue: self[attribute.name])
    }
}
