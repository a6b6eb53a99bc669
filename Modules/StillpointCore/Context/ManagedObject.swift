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
    /// An attribute of another entity (`note[Item.uid]`) does not stop the process: reading it gives the
    /// attribute's default (or its type's empty value: 0, "", nil...), writing it changes nothing, and the
    /// context's next save throws a ``SaveError/validation(_:)`` that names the object and the attribute, until
    /// the context rolls back or resets. ``value(of:)`` throws at once instead.
    ///
    /// Inlinable, so that the caller's code is specialized for `Value`: typed access then costs no generic
    /// dispatch, which loops over thousands of objects feel.
    @inlinable
    public subscript<Value: AttributeValueConvertible>(attribute: Attribute<Value>) -> Value {
        get {
            if let stored = storedValue(named: attribute.name) {
                if let value = Value(attributeValue: stored) { return value }
                if stored.isNull, let value = attribute.defaultValue { return value }
            }
            return misread(attribute)
        }
        set {
            setStoredValue(newValue.attributeValue, named: attribute.name)
        }
    }

    /// The typed value of an attribute, or an error when the object's entity has no such attribute (one of
    /// another entity) or holds a value of another type under its name.
    ///
    /// ```swift
    /// let uid = try item.value(of: Item.uid)
    /// ```
    public func value<Value: AttributeValueConvertible>(of attribute: Attribute<Value>) throws(SchemaError) -> Value {
        let position = try entity.position(of: attribute.name)
        guard entity.storedAttributes[position].type == Value.attributeType,
              let value = Value(attributeValue: values[position]) ?? attribute.defaultValue else {
            throw SchemaError.invalidDeclaration(
                "\(entity.name).\(attribute.name) is \(entity.storedAttributes[position].kindDescription), which \(Value.self) cannot read")
        }
        return value
    }

    /// The value of the attribute named `name`, or `nil` when the entity has none (an attribute of another
    /// entity): the typed subscript's getter.
    @usableFromInline
    func storedValue(named name: String) -> AttributeValue? {
        position(of: name).map { values[$0] }
    }

    /// Sets the attribute named `name` to a value of its type: the typed subscript's setter. A name the entity
    /// does not have, or a value its attribute of that name cannot hold, is recorded for the next save to refuse.
    @usableFromInline
    func setStoredValue(_ value: AttributeValue, named name: String) {
        guard let position = position(of: name), entity.storedAttributes[position].admits(value) else {
            return graph.recordMisuse(of: name, on: self)
        }
        setStoredValue(value, at: position)
    }

    /// What the typed getter gives for an attribute the object's entity does not have (one of another entity),
    /// after recording the mistake for the next save to refuse: the attribute's default, or its type's empty value.
    @usableFromInline
    func misread<Value: AttributeValueConvertible>(_ attribute: Attribute<Value>) -> Value {
        graph.recordMisuse(of: attribute.name, on: self)
        if let value = attribute.defaultValue ?? Value(attributeValue: .null) ?? Value(attributeValue: Value.attributeType.emptyValue) {
            return value
        }
        // Only a conformance of the caller's own that reads no value of its own type, not even the empty one.
        preconditionFailure("\(Value.self) reads no \(Value.attributeType.rawValue) value; its AttributeValueConvertible conformance is broken") // swiftlint:disable:this runtime_trap: only a conformance that reads no value of its own type, against the protocol's contract
    }

    /// The value of an attribute by name, for code that works with any entity (exports, dictionaries).
    public func value(forKey key: String) throws(SchemaError) -> AttributeValue {
        values[try entity.position(of: key)]
    }

    /// Sets an attribute by name, checking the value's type (and an integer's range) against the attribute's.
    public func setValue(_ value: AttributeValue, forKey key: String) throws(SchemaError) {
        let position = try entity.position(of: key)
        let attribute = entity.storedAttributes[position]
        guard attribute.admits(value) else {
            throw SchemaError.invalidDeclaration("\(entity.name).\(key) is \(attribute.kindDescription); \(value) does not fit")
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

    /// The position of the attribute named `name`, or `nil` when the entity has none.
    private func position(of name: String) -> Int? {
        // Entities are small: comparing a few names costs less than hashing one, on every typed access.
        let attributes = entity.storedAttributes
        if attributes.count <= 8 {
            for position in attributes.indices where attributes[position].name == name { return position }
            return nil
        }
        return entity.attributePositions[name]
    }

    func setStoredValue(_ value: AttributeValue, at position: Int) {
        guard values[position] != value else { return }
        values[position] = value
        graph.didChange(self)
    }
}

extension AttributeValue {
    /// Whether a non-null value can be stored in an attribute of `type`.
    package func fits(_ type: AttributeType) -> Bool {
        switch (self, type) {
        case (.integer, .integer), (.double, .double), (.integer, .double), (.string, .string), (.bool, .bool),
             (.date, .date), (.uuid, .uuid), (.binary, .binary):
            return true
        default:
            return false
        }
    }
}
