import Foundation

/// Why a save failed. A failed save changes nothing in the store, and the context keeps its changes.
public enum SaveError: Error, Sendable, Equatable {
    /// Rows changed in the store since the context read them (under the ``MergePolicy/error`` policy).
    case conflicts([MergeConflict])
    /// Objects that break the schema's rules.
    case validation([ValidationFailure])
    /// A relationship refers to a row that another context or process deleted meanwhile (the store's foreign key
    /// refused the write); the store's message says which.
    case brokenReference(String)
}

/// One object that breaks a rule of the schema.
public struct ValidationFailure: Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// A required attribute has no value.
        case missingValue(attribute: String)
        /// The values of a uniqueness constraint are already taken by another row.
        case uniquenessViolation(attributes: [String], values: [AttributeValue])
        /// The object is deleted, and its relationship's ``DeleteRule/deny`` rule refuses while objects are related.
        case deleteDenied(relationship: String, related: Int)
        /// The object refers through a relationship to a row that does not exist (deleted meanwhile, or kept by
        /// the ``DeleteRule/noAction`` rule from being cleared).
        case danglingReference(relationship: String)
        /// An integer outside the range of its attribute's type (`range`, an `Attribute<Int32>`'s).
        case outOfRange(attribute: String, value: AttributeValue, range: ClosedRange<Int64>?)
        /// The object was read or written through a typed attribute its entity does not have (one of another
        /// entity), or holds as another type: the subscript gave a default, or dropped the value.
        case attributeOfAnotherEntity(attribute: String)
    }

    public let objectID: ObjectID
    public let reason: Reason

    package init(objectID: ObjectID, reason: Reason) {
        self.objectID = objectID
        self.reason = reason
    }

    public var description: String {
        switch reason {
        case .missingValue(let attribute):
            return "\(objectID): the required attribute '\(attribute)' has no value"
        case .uniquenessViolation(let attributes, let values):
            return "\(objectID): another \(objectID.entityName) already has \(attributes.joined(separator: ", ")) = \(values.map(\.description).joined(separator: ", "))"
        case .deleteDenied(let relationship, let related):
            return "\(objectID) can't be deleted: its '\(relationship)' relationship denies it while \(related) object\(related == 1 ? " is" : "s are") related; delete or move them first"
        case .danglingReference(let relationship):
            return "\(objectID): its '\(relationship)' relationship refers to an object that no longer exists, or a deleted object still has objects referring to it"
        case .outOfRange(let attribute, let value, let range):
            let holds = range.map { "integers in \($0.lowerBound)...\($0.upperBound)" } ?? "64-bit integers"
            return "\(objectID): '\(attribute)' holds \(holds), not \(value); declare it with a wider type (Int64) to store such values"
        case .attributeOfAnotherEntity(let attribute):
            return "\(objectID): a typed attribute '\(attribute)' was read or set on it, which \(objectID.entityName) does not have "
                + "(or has as another type), so it read a default and wrote nothing; use that entity's own attributes, then roll back or reset the context"
        }
    }
}

extension SaveError: LocalizedError, CustomStringConvertible {
    public var errorDescription: String? { description }

    public var description: String {
        switch self {
        case .conflicts(let conflicts):
            return "the save conflicts with changes in the store; fetch again, or choose a merge policy: "
                + conflicts.map(\.description).joined(separator: "; ")
        case .validation(let failures):
            return "the save breaks the schema: " + failures.map(\.description).joined(separator: "; ")
        case .brokenReference(let message):
            return "a relationship refers to an object deleted elsewhere meanwhile (\(message)); refresh the objects and save again"
        }
    }
}

/// A mistake in using a context.
public enum ContextError: Error, Sendable, Equatable, LocalizedError {
    /// No object with this ID exists in the store or the context.
    case objectNotFound(ObjectID)
    /// The object belongs to another context.
    case foreignObject(ObjectID)
    /// The object is not of the entity the relationship reaches.
    case wrongDestination(relationship: String, expected: String, object: ObjectID)
    /// A batch update of a scoped context sets the relationship that places rows in the scope (``FetchScope``).
    case outsideScope(entity: String, relationship: String)
    /// The store cannot pin a context to a query generation: SQLite in memory has one connection, which a held
    /// read would keep from every save.
    case queryGenerationUnavailable(store: String)

    public var errorDescription: String? {
        switch self {
        case .objectNotFound(let id): return "no object \(id) in the store; it may have been deleted"
        case .foreignObject(let id): return "\(id) belongs to another context; pass its objectID instead"
        case .wrongDestination(let relationship, let expected, let id):
            return "'\(relationship)' reaches \(expected) objects; \(id) is not one"
        case .outsideScope(let entity, let relationship):
            return "a scoped context cannot batch-update \(entity).\(relationship), which places rows in its scope; update it in an unscoped context"
        case .queryGenerationUnavailable(let store):
            return "the store \(store) cannot pin a query generation (its one connection would hold every save back); "
                + "open a store that is not in memory, or read in withPinnedSnapshot"
        }
    }
}
