/// A part of a store that a context or request sees alone: the rows of one entity that a predicate selects, and
/// the rows of every entity that reaches them through to-one relationships. The store layer ANDs the scope into
/// every statement a request makes (fetches, counts, dictionary fetches, scans, exports, batch updates and deletes)
/// and into the in-memory matching of unsaved objects and live results, so that no caller can forget it, and a
/// predicate that names rows outside it (a key path, a SUBQUERY) finds nothing there.
///
/// ```swift
/// let alice = try FetchScope(Practitioner.self, try FetchPredicate("_id == %@", aliceRowID))
/// await context.setScope(alice)                 // every request of the context
/// var request = FetchRequest(Session.self)
/// request.scope = alice                          // or one request
/// ```
///
/// An entity is scoped when it is the scope's entity, or reaches it through a path of to-one relationships
/// (`Session.practitioner`, or `Note.session.practitioner`); the shortest path counts. Other entities are not
/// scoped. A scope by row id (`_id == N`) is read as the relationship column itself, so that an index led by
/// that column serves it.
public struct FetchScope: Sendable, Hashable {
    /// The name of the entity whose rows the scope selects.
    public let entityName: String
    /// Which of them: a predicate of comparisons of that entity's attributes (and `_id`).
    public let predicate: FetchPredicate

    /// A scope of the rows of `entity` that `predicate` selects.
    ///
    /// - Throws: ``FetchPredicateError`` when the predicate follows a relationship (ANY, ALL, NONE, SUBQUERY):
    ///   a scope reads the scoped entity's own attributes.
    public init<E: Entity>(_ entity: E.Type, _ predicate: FetchPredicate) throws(FetchPredicateError) {
        try self.init(entityName: E.entityName, predicate: predicate)
    }

    public init(entityName: String, predicate: FetchPredicate) throws(FetchPredicateError) {
        guard predicate.root.readsOwnAttributesOnly else {
            throw FetchPredicateError(.invalidComparison, "a scope's predicate compares the attributes of '\(entityName)' only; it cannot follow a relationship")
        }
        self.entityName = entityName
        self.predicate = predicate
    }

    /// The condition the scope puts on the rows of `entity`, or `nil` when `entity` does not reach the scope's.
    package func restriction(for entity: EntityDescription) -> FetchPredicate? {
        guard let path = Self.path(from: entity, to: entityName) else { return nil }
        guard !path.isEmpty else { return predicate }
        return FetchPredicate(root: predicate.root.prefixingKeys(with: path.joined(separator: ".") + "."))
    }

    /// The shortest path of stored to-one relationships from `entity` to the entity named `target`: empty when it
    /// is that entity, `nil` when none reaches it within four steps.
    static func path(from entity: EntityDescription, to target: String) -> [String]? {
        var frontier: [(EntityDescription, [String])] = [(entity, [])]
        var seen: Set<String> = [entity.name]
        for _ in 0...4 {
            var next: [(EntityDescription, [String])] = []
            for (current, path) in frontier {
                if current.name == target { return path }
                for relationship in current.relationships where relationship.isStored && !relationship.isToMany {
                    guard let destination = relationship.destinationEntity?(), seen.insert(destination.name).inserted else { continue }
                    next.append((destination, path + [relationship.name]))
                }
            }
            frontier = next
        }
        return nil
    }
}
