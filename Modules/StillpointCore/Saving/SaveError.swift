import Foundation

/// Why a save failed. A failed save changes nothing in the store, and the context keeps its changes.
public enum SaveError: Error, Sendable, Equatable {
    /// Rows changed in the store since the context read them (under the ``MergePolicy/error`` policy).
    case conflicts([MergeConflict])
    /// Objects that break the schema's rules.
    case validation([ValidationFailure])
}

/// One object that breaks a rule of the schema.
public struct ValidationFailure: Sendable, Hashable, CustomStringConvertible {
    public enum Reason: Sendable, Hashable {
        /// A required attribute has no value.
        case missingValue(attribute: String)
        /// The values of a uniqueness constraint are already taken by another row.
        case uniquenessViolation(attributes: [String], values: [AttributeValue])
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
        }
    }
}

/// A mistake in using a context.
public enum ContextError: Error, Sendable, Equatable, LocalizedError {
    /// No object with this ID exists in the store or the context.
    case objectNotFound(ObjectID)
    /// The object belongs to another context.
    case foreignObject(ObjectID)

    public var errorDescription: String? {
        switch self {
        case .objectNotFound(let id): return "no object \(id) in the store; it may have been deleted"
        case .foreignObject(let id): return "\(id) belongs to another context; pass its objectID instead"
        }
    }
}
