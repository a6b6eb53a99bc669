/// What a batch delete's delete rules do in the store, before the delete itself and in its transaction: the
/// rows a cascade reaches are deleted (and what their own rules reach), nullified references are cleared, and a
/// deny rule refuses the batch while a row is related.
///
/// Each step is a batch statement of its own, with its own change set, so contexts that hold the rows it changes
/// learn of them as they learn of the delete.
struct BatchDeleteRules {
    enum Step {
        case statement(BatchStatement)
        /// The batch fails when `request` matches a row: `relationship` of the deleted entity denies it.
        case deny(FetchRequest, relationship: String, entity: String)
    }

    /// The rows a batch delete deletes are named by id, this many to a statement.
    static let rowsPerStep = 5_000

    /// `_id IN {ids}`: the rows a batch delete read before its rules changed anything.
    static func rows(_ ids: [Int64]) -> FetchPredicate {
        .rowIDs(ids)
    }

    /// Cascades reach this many levels at most: a relationship that cascades to its own entity has no end in SQL.
    static let maximumDepth = 8

    /// The steps before deleting what `request` matches, deepest first.
    static func steps(deleting request: FetchRequest, in schema: Schema, depth: Int = 0, cascading: Set<String> = []) throws -> [Step] {
        let entity = request.entity
        func refused(_ relationship: RelationshipDescription, _ why: String) -> SchemaError {
            .invalidDeclaration("'\(entity.name).\(relationship.name)' \(why), which a batch delete does not follow; delete the objects in a context")
        }
        let matched = request.predicate?.root ?? .constant(true)
        /// The rows of `destination` whose to-one `link` reaches a deleted row.
        func reaching(_ destination: EntityDescription, through link: String) -> FetchRequest {
            FetchRequest(destination, predicate: FetchPredicate(root: .quantified(.any, relationship: link, matched)))
        }
        var steps: [Step] = []
        // The side that holds the column: what it reaches would have to be read before the rows go.
        for relationship in entity.relationships where relationship.isStored {
            switch (relationship.deleteRule, relationship.inverse) {
            case (.deny, let inverse?):
                let reached = reaching(try schema.entity(named: relationship.destination), through: inverse)
                steps.append(.deny(reached, relationship: relationship.name, entity: entity.name))
            case (.deny, nil): throw refused(relationship, "denies deletes through a to-one without inverse")
            case (.cascade, _): throw refused(relationship, "cascades from the side that holds the reference")
            default: continue
            }
        }
        for relationship in entity.relationships where relationship.isReadThroughInverse {
            guard let inverse = relationship.inverse else { continue }
            let destination = try schema.entity(named: relationship.destination)
            let related = reaching(destination, through: inverse)
            if relationship.isManyToMany(in: destination) {
                switch relationship.deleteRule {
                case .deny:
                    steps.append(.deny(related, relationship: relationship.name, entity: entity.name))
                case .cascade:
                    // The links are the way to the objects to delete, and deleting those deletes their links first.
                    throw refused(relationship, "is a many-to-many that cascades")
                case .nullify, .noAction:
                    break  // the store deletes the links with the rows they join
                }
                continue
            }
            switch relationship.deleteRule {
            case .cascade:
                let step = "\(entity.name).\(relationship.name)"
                guard !cascading.contains(step) else { throw refused(relationship, "cascades back to where it began (a tree)") }
                guard depth < maximumDepth else { throw refused(relationship, "cascades more than \(maximumDepth) levels deep") }
                steps += try Self.steps(deleting: related, in: schema, depth: depth + 1, cascading: cascading.union([step]))
                steps.append(.statement(.delete(related)))
            case .nullify:
                steps.append(.statement(.update(related, values: [inverse: .null])))
            case .deny:
                steps.append(.deny(related, relationship: relationship.name, entity: entity.name))
            case .noAction:
                break  // the store's foreign key refuses the delete while rows refer to it
            }
        }
        for (referrer, name) in schema.unpairedReferences(to: entity.name) {
            steps.append(.statement(.update(reaching(referrer, through: name), values: [name: .null])))
        }
        return steps
    }
}
