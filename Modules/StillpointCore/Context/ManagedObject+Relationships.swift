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

    /// Adds `object` to a to-many relationship: its to-one inverse now reaches this object, or, for a
    /// many-to-many, a link relates them.
    public func add<Destination: Entity>(_ object: ManagedObject, to relationship: ToMany<Destination>) throws {
        try addRelatedObject(object, forKey: relationship.name)
    }

    /// Takes `object` out of a to-many relationship.
    public func remove<Destination: Entity>(_ object: ManagedObject, from relationship: ToMany<Destination>) throws {
        try removeRelatedObject(object, forKey: relationship.name)
    }

    // MARK: By name

    /// The object the to-one relationship `key` reaches, or `nil`.
    public func relatedObject(forKey key: String) throws -> ManagedObject? {
        let relationship = try toOneRelationship(named: key)
        if relationship.isReadThroughInverse, let inverse = relationship.inverse {
            return try graph.objects(reaching: objectID, through: inverse, of: try graph.destination(of: relationship)).first
        }
        guard let id = RelationshipReference.objectID(in: values[try entity.position(of: key)], entityName: relationship.destination)
        else { return nil }
        return try graph.relatedObject(with: id)
    }

    /// The objects the to-many relationship `key` reaches.
    public func relatedObjects(forKey key: String) throws -> [ManagedObject] {
        let (relationship, inverse) = try toManyRelationship(named: key)
        let destination = try graph.destination(of: relationship)
        if relationship.isManyToMany(in: destination) { return try graph.manyToManyTargets(of: self, relationship) }
        return try graph.objects(reaching: objectID, through: inverse, of: destination)
    }

    /// Adds `object` to the to-many relationship `key`.
    public func addRelatedObject(_ object: ManagedObject, forKey key: String) throws {
        let (relationship, inverse) = try toManyRelationship(named: key)
        guard object.graph === graph else { throw ContextError.foreignObject(object.objectID) }
        guard object.entity.name == relationship.destination else {
            throw ContextError.wrongDestination(relationship: "\(entity.name).\(key)", expected: relationship.destination, object: object.objectID)
        }
        guard relationship.isManyToMany(in: try graph.destination(of: relationship)) else {
            return try object.setRelatedObject(self, forKey: inverse)
        }
        try graph.addLink(from: self, to: object, relationship)
    }

    /// Takes `object` out of the to-many relationship `key`.
    public func removeRelatedObject(_ object: ManagedObject, forKey key: String) throws {
        let (relationship, inverse) = try toManyRelationship(named: key)
        guard relationship.isManyToMany(in: try graph.destination(of: relationship)) else {
            guard try object.relatedObject(forKey: inverse) === self else { return }
            return try object.setRelatedObject(nil, forKey: inverse)
        }
        try graph.removeLink(from: self, to: object, relationship)
    }

    private func toManyRelationship(named key: String) throws -> (RelationshipDescription, inverse: String) {
        guard let relationship = entity.relationship(named: key), relationship.isToMany, let inverse = relationship.inverse else {
            throw SchemaError.invalidDeclaration("\(entity.name) has no to-many relationship '\(key)'")
        }
        return (relationship, inverse)
    }

    /// Makes the to-one relationship `key` reach `object`, or nothing. In a one-to-one, the object each side
    /// reached before lets go, so that each reaches one object at most.
    public func setRelatedObject(_ object: ManagedObject?, forKey key: String) throws {
        let relationship = try toOneRelationship(named: key)
        if let object {
            guard object.graph === graph else { throw ContextError.foreignObject(object.objectID) }
            guard object.entity.name == relationship.destination else {
                throw ContextError.wrongDestination(relationship: "\(entity.name).\(key)", expected: relationship.destination, object: object.objectID)
            }
        }
        guard relationship.isStored else {
            // Read through the object's column: the partner it had lets go, the new one points here.
            guard let inverse = relationship.inverse else { return }
            if let previous = try relatedObject(forKey: key), previous !== object { try previous.setColumn(inverse, to: nil) }
            try object?.setColumn(inverse, to: self)
            return
        }
        if let inverse = relationship.inverse, let object, try graph.destination(of: relationship).relationship(named: inverse)?.isToMany == false,
           let partner = try object.relatedObject(forKey: inverse), partner !== self {
            try partner.setColumn(key, to: nil)  // a one-to-one: the object's partner lets go of it
        }
        try setColumn(key, to: object)
    }

    /// Sets the column of the to-one relationship `key` to `object`'s reference, or null.
    private func setColumn(_ key: String, to object: ManagedObject?) throws {
        setStoredValue(object.map { RelationshipReference.value(for: $0.objectID) } ?? .null, at: try entity.position(of: key))
    }

    private func toOneRelationship(named key: String) throws -> RelationshipDescription {
        guard let relationship = entity.relationship(named: key), !relationship.isToMany else {
            throw SchemaError.invalidDeclaration("\(entity.name) has no to-one relationship '\(key)'")
        }
        return relationship
    }
}
