/// An object of an entity, registered in exactly one context.
///
/// A managed object is not `Sendable`: the compiler keeps it inside the context that made it. Pass its
/// ``objectID`` to reach the same object in another context.
///
/// ```swift
/// try await context.perform { context in
///     let item = context.insert(Item.self)
///     item[Item.uid] = 7
///     item[Item.title] = "Breath"
///     try await context.save()
/// }
/// ```
public final class ManagedObject {
    /// The entity of the object.
    public let entity: EntityDescription
    /// The object's identity, the same in every context; temporary until the object is first saved.
    public internal(set) var objectID: ObjectID
    /// The values in memory, in the order of the entity's attributes.
    var values: ContiguousArray<AttributeValue>
    /// The values as last read from or saved to the store (or the parent context); `nil` for an inserted object.
    var committedValues: ContiguousArray<AttributeValue>?
    /// The row version the committed values came with, for optimistic locking.
    var version: Int64
    /// Whether the object was deleted in its context (a pending delete until the next save).
    public internal(set) var isDeleted = false
    /// Whether the object's row was deleted from the store by someone else: it is no longer valid.
    public internal(set) var isFault = false
    /// Where the object is in its context's inserted, updated and deleted sets.
    var pendingSlots = PendingSlots()
    unowned(unsafe) let graph: ObjectGraph

    init(entity: EntityDescription, objectID: ObjectID, values: ContiguousArray<AttributeValue>,
         committedValues: ContiguousArray<AttributeValue>?, version: Int64, graph: ObjectGraph) {
        self.entity = entity
        self.objectID = objectID
        self.values = values
        self.committedValues = committedValues
        self.version = version
        self.graph = graph
    }

    /// The typed value of an attribute.
    ///
    /// ```swift
    /// item[Item.title] = "Breath"
    /// let uid: Int32 = item[Item.uid]
    /// ```
    ///
    /// Inlinable, so that the caller's code is specialized for `Value`: typed access then costs no generic
    /// dispatch, which loops over thousands of objects feel.
    @inlinable
    public subscript<Value: AttributeValueConvertible>(attribute: Attribute<Value>) -> Value {
        get {
            let stored = storedValue(named: attribute.name)
            guard let value = Value(attributeValue: stored) ?? attribute.defaultValue else {
                preconditionFailure("\(entity.name).\(attribute.name) holds \(stored), which is not a \(Value.self)")
            }
            return value
        }
        set {
            setStoredValue(newValue.attributeValue, named: attribute.name)
        }
    }

    /// The value of the attribute named `name`, which must exist: the typed subscript's getter.
    @usableFromInline
    func storedValue(named name: String) -> AttributeValue {
        values[position(of: name)]
    }

    /// Sets the attribute named `name`, which must exist, to a value of its type: the typed subscript's setter.
    @usableFromInline
    func setStoredValue(_ value: AttributeValue, named name: String) {
        setStoredValue(value, at: position(of: name))
    }

    /// The value of an attribute by name, for code that works with any entity (exports, dictionaries).
    public func value(forKey key: String) throws(SchemaError) -> AttributeValue {
        values[try entity.position(of: key)]
    }

    /// Sets an attribute by name, checking the value's type against the attribute's.
    public func setValue(_ value: AttributeValue, forKey key: String) throws(SchemaError) {
        let position = try entity.position(of: key)
        let attribute = entity.storedAttributes[position]
        guard value.isNull ? attribute.isOptional : value.fits(attribute.type) else {
            throw SchemaError.invalidDeclaration("\(entity.name).\(key) is \(attribute.isOptional ? "an optional " : "")\(attribute.type.rawValue); \(value) does not fit")
        }
        setStoredValue(value, at: position)
    }

    /// Whether the object is inserted, deleted or changed and not saved yet.
    public var hasChanges: Bool {
        isInserted || isDeleted || hasChangedValues
    }

    /// Whether the object was inserted in its context and not saved yet.
    public var isInserted: Bool { committedValues == nil && !isDeleted }

    /// The attributes changed since the object was last saved or fetched, with their new values.
    public var changedValues: [String: AttributeValue] {
        var changes: [String: AttributeValue] = [:]
        for position in changedPositions {
            changes[entity.storedAttributes[position].name] = values[position]
        }
        return changes
    }

    /// The values as last fetched or saved, for the attributes changed since.
    public var committedValuesForChangedAttributes: [String: AttributeValue] {
        guard let committedValues else { return [:] }
        var old: [String: AttributeValue] = [:]
        for position in changedPositions {
            old[entity.storedAttributes[position].name] = committedValues[position]
        }
        return old
    }

    var hasChangedValues: Bool {
        guard let committedValues else { return false }
        return values != committedValues
    }

    /// The positions of the attributes whose in-memory value differs from the committed one.
    var changedPositions: [Int] {
        guard let committedValues else { return Array(values.indices) }
        return values.indices.filter { values[$0] != committedValues[$0] }
    }

    /// All attribute values by name, for dictionaries and exports.
    public var dictionary: [String: AttributeValue] {
        Dictionary(uniqueKeysWithValues: zip(entity.storedAttributes.map(\.name), values))
    }

    private func position(of name: String) -> Int {
        // Entities are small: comparing a few names costs less than hashing one, on every typed access.
        let attributes = entity.storedAttributes
        if attributes.count <= 8 {
            for position in attributes.indices where attributes[position].name == name { return position }
        } else if let position = entity.attributePositions[name] {
            return position
        }
        preconditionFailure("\(name) is not an attribute of \(entity.name)")
    }

    func setStoredValue(_ value: AttributeValue, at position: Int) {
        guard values[position] != value else { return }
        values[position] = value
        graph.didChange(self)
    }
}

extension AttributeValue {
    /// Whether a non-null value can be stored in an attribute of `type`.
    func fits(_ type: AttributeType) -> Bool {
        switch (self, type) {
        case (.integer, .integer), (.double, .double), (.integer, .double), (.string, .string), (.bool, .bool),
             (.date, .date), (.uuid, .uuid), (.binary, .binary):
            return true
        default:
            return false
        }
    }
}
