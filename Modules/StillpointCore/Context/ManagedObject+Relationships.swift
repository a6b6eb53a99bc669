/// Typed access to relationships. Reading one may read the store, to load a related object when first touched,
/// so the getters throw; a related object the context holds already is returned without reading anything.
///
/// ```swift
/// let run = context.insert(ImportRun.self)
/// let session = context.insert(Session.self)
/// try session.set(Session.run, to: run)             // both sides: run's `sessions` now holds it
/// try #expect(run[ImportRun.sessions] == [session])
/// try await context.save()                           // saves the run first, then the session that refers to it
/// ```
extension ManagedObject {
    /// The object a to-one relationship reaches, or `nil`.
    public subscript<Destination: Entity>(relationship: ToOne<Destination>) -> ManagedObject? {
        get throws { try relatedObject(forKey: relationship.name) }
    }

    /// The objects a to-many relationship reaches: the destination's objects whose inverse is this object, with the
    /// context's unsaved changes, in the order of their row ids (unsaved ones last).
    public subscript<Destination: Entity>(relationship: ToMany<Destination>) -> [ManagedObject] {
        get throws { try relatedObjects(forKey: relationship.name) }
    }

    /// Makes a to-one relationship reach `object` (or nothing); the inverse follows, since both sides are one value.
    public func set<Destination: Entity>(_ relationship: ToOne<Destination>, to object: ManagedObject?) throws {
        try setRelatedObject(object, forKey: relationship.name)
    }

    /// Adds `object` to a to-many relationship, by making its inverse reach this object.
    public func add<Destination: Entity>(_ object: ManagedObject, to relationship: ToMany<Destination>) throws {
        try object.setRelatedObject(self, forKey: relationship.inverse)
    }

    /// Takes `object` out of a to-many relationship, by clearing its inverse if it reaches this object.
    public func remove<Destination: Entity>(_ object: ManagedObject, from relationship: ToMany<Destination>) throws {
        guard try object.relatedObject(forKey: relationship.inverse) === self else { return }
        try object.setRelatedObject(nil, forKey: relationship.inverse)
    }

    // MARK: By name

    /// The object the to-one relationship `key` reaches, or `nil`.
    public func relatedObject(forKey key: String) throws -> ManagedObject? {
        let relationship = try toOneRelationship(named: key)
        guard let id = RelationshipReference.objectID(in: values[try entity.position(of: key)], entityName: relationship.destination)
        else { return nil }
        return try graph.relatedObject(with: id)
    }

    /// The objects the to-many relationship `key` reaches.
    public func relatedObjects(forKey key: String) throws -> [ManagedObject] {
        guard let relationship = entity.relationship(named: key), relationship.isToMany, let inverse = relationship.inverse else {
            throw SchemaError.invalidDeclaration("\(entity.name) has no to-many relationship '\(key)'")
        }
        return try graph.objects(reaching: objectID, through: inverse, of: try graph.store.schema.entity(named: relationship.destination))
    }

    /// Makes the to-one relationship `key` reach `object`, or nothing.
    public func setRelatedObject(_ object: ManagedObject?, forKey key: String) throws {
        let relationship = try toOneRelationship(named: key)
        let position = try entity.position(of: key)
        if let object {
            guard object.graph === graph else { throw ContextError.foreignObject(object.objectID) }
            guard object.entity.name == relationship.destination else {
                throw ContextError.wrongDestination(relationship: "\(entity.name).\(key)", expected: relationship.destination, object: object.objectID)
            }
        }
        // A one-to-one keeps a column on each side: the object reached before lets go of this one, and the new
        // one's partner lets go of it.
        let oneToOneInverse = relationship.inverse.flatMap { name in
            graph.store.schema.entities.first { $0.name == relationship.destination }?.relationship(named: name)
        }.flatMap { $0.isToMany ? nil : $0.name }
        if let inverse = oneToOneInverse {
            if let previous = try relatedObject(forKey: key), previous !== object,
               try previous.relatedObject(forKey: inverse) === self {
                previous.setStoredValue(.null, at: try previous.entity.position(of: inverse))
            }
            if let object, let partner = try object.relatedObject(forKey: inverse), partner !== self {
                partner.setStoredValue(.null, at: position)
            }
        }
        setStoredValue(object.map { RelationshipReference.value(for: $0.objectID) } ?? .null, at: position)
        if let inverse = oneToOneInverse, let object {
            object.setStoredValue(RelationshipReference.value(for: objectID), at: try object.entity.position(of: inverse))
        }
    }

    private func toOneRelationship(named key: String) throws -> RelationshipDescription {
        guard let relationship = entity.relationship(named: key), !relationship.isToMany else {
            throw SchemaError.invalidDeclaration("\(entity.name) has no to-one relationship '\(key)'")
        }
        return relationship
    }
}
