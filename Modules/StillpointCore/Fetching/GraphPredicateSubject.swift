/// An object as the predicate evaluator reads it in a context: its values, and the objects its relationships
/// reach, loaded through the context (with its unsaved changes).
struct GraphPredicateSubject: PredicateSubject {
    /// The first read that failed: evaluation goes on with null, and the caller throws it afterwards.
    final class Failure {
        var error: (any Error)?
    }

    let graph: ObjectGraph
    let id: ObjectID
    let entity: EntityDescription
    let values: ContiguousArray<AttributeValue>
    let failure: Failure

    func value(forKeyPath keyPath: String) -> AttributeValue {
        guard let dot = keyPath.firstIndex(of: ".") else {
            if keyPath == "_id" { return id.rowID.map(AttributeValue.integer) ?? .null }
            return entity.attributePositions[keyPath].map { values[$0] } ?? .null
        }
        let name = String(keyPath[..<dot]), rest = String(keyPath[keyPath.index(after: dot)...])
        guard let relationship = entity.relationship(named: name) else { return .null }
        let related = self.related(through: name)
        guard relationship.isToMany else { return related.first?.value(forKeyPath: rest) ?? .null }
        let parts = rest.split(separator: ".", maxSplits: 1).map(String.init)
        guard let collection = parts.first.flatMap(CollectionOperator.init(rawValue:)) else { return .null }
        if collection == .count { return collection.value(over: related.map { _ in .null }) }
        return collection.value(over: related.map { $0.value(forKeyPath: parts.count > 1 ? parts[1] : "") })
    }

    func related(through name: String) -> [any PredicateSubject] {
        guard failure.error == nil, let relationship = entity.relationship(named: name) else { return [] }
        do {
            let destination = try graph.destination(of: relationship)
            if relationship.isManyToMany(in: destination) {
                return try graph.manyToManyTargets(of: try graph.existingObject(with: id), relationship).map(subject(of:))
            }
            if relationship.isReadThroughInverse, let inverse = relationship.inverse {
                return try graph.objects(reaching: id, through: inverse, of: destination).map(subject(of:))
            }
            guard let position = entity.attributePositions[name],
                  let targetID = RelationshipReference.objectID(in: values[position], entityName: destination.name),
                  let target = try graph.relatedObject(with: targetID) else { return [] }
            return [subject(of: target)]
        } catch {
            failure.error = error
            return []
        }
    }

    private func subject(of object: ManagedObject) -> GraphPredicateSubject {
        GraphPredicateSubject(graph: graph, id: object.objectID, entity: object.entity, values: object.values, failure: failure)
    }
}
