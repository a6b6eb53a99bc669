/// Many-to-many relationships, kept as link objects: one per related pair, in the link table ``Schema`` adds.
/// Adding and removing a related object inserts and deletes links, which saves, change sets and merges carry
/// like any object.
extension ObjectGraph {
    /// The link of `relationship` of `entity` when it is many-to-many, with the link table's entity.
    func manyToManyLink(_ relationship: RelationshipDescription, of entity: EntityDescription) throws -> (ManyToManyLink, EntityDescription)? {
        guard relationship.isManyToMany(in: try destination(of: relationship)) else { return nil }
        let link = ManyToManyLink(relationship, of: entity.name)
        return (link, try store.schema.entity(named: link.entityName))
    }

    /// The links of `object` through `link`, with the context's unsaved changes.
    func links(of object: ManagedObject, _ link: ManyToManyLink, _ linkEntity: EntityDescription, prefetchingTargets: Bool = false) throws -> [ManagedObject] {
        let comparison = PredicateComparison(
            lhs: .key(link.ownColumn), op: .equal, options: [], rhs: .value(RelationshipReference.value(for: object.objectID)))
        var request = FetchRequest(linkEntity, predicate: FetchPredicate(root: .comparison(comparison)))
        if prefetchingTargets { request.prefetchedRelationships = [link.otherColumn] }
        return try fetchObjects(request)
    }

    /// The objects `relationship` of `object` reaches through its links, each once, in no particular order.
    func manyToManyTargets(of object: ManagedObject, _ relationship: RelationshipDescription) throws -> [ManagedObject] {
        guard let (link, linkEntity) = try manyToManyLink(relationship, of: object.entity) else { return [] }
        var seen: Set<ObjectIdentifier> = []
        return try links(of: object, link, linkEntity, prefetchingTargets: true).compactMap { linkObject in
            guard let target = try linkObject.relatedObject(forKey: link.otherColumn), !target.isDeleted,
                  seen.insert(ObjectIdentifier(target)).inserted else { return nil }
            return target
        }
    }

    /// Relates `object` and `target` through `relationship`, unless they are already.
    func addLink(from object: ManagedObject, to target: ManagedObject, _ relationship: RelationshipDescription) throws {
        guard let (link, linkEntity) = try manyToManyLink(relationship, of: object.entity) else { return }
        let existing = try links(of: object, link, linkEntity)
        guard try !existing.contains(where: { try $0.relatedObject(forKey: link.otherColumn) === target }) else { return }
        let linkObject = insert(linkEntity)
        try linkObject.setRelatedObject(object, forKey: link.ownColumn)
        try linkObject.setRelatedObject(target, forKey: link.otherColumn)
    }

    /// Stops relating `object` and `target` through `relationship`.
    func removeLink(from object: ManagedObject, to target: ManagedObject, _ relationship: RelationshipDescription) throws {
        guard let (link, linkEntity) = try manyToManyLink(relationship, of: object.entity) else { return }
        for linkObject in try links(of: object, link, linkEntity) where try linkObject.relatedObject(forKey: link.otherColumn) === target {
            try delete(linkObject, applyingRules: false)
        }
    }

    /// Deletes the links of a deleted object: a link can't outlive either side.
    func deleteLinks(of object: ManagedObject, _ relationship: RelationshipDescription) throws {
        guard let (link, linkEntity) = try manyToManyLink(relationship, of: object.entity) else { return }
        for linkObject in try links(of: object, link, linkEntity) where !linkObject.isDeleted {
            try delete(linkObject, applyingRules: false)
        }
    }
}
